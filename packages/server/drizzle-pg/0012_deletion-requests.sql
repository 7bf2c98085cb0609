CREATE TABLE "account_deletion_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text,
	"provider_id" text,
	"request_id" text,
	"channel" text NOT NULL,
	"state" text NOT NULL,
	"requested_at" text NOT NULL,
	"due_at" text NOT NULL,
	"done_at" text,
	"halted_by" text,
	"note" text
);
--> statement-breakpoint
ALTER TABLE "account_deletion_requests" ADD CONSTRAINT "account_deletion_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_deletion_requests" ADD CONSTRAINT "account_deletion_requests_provider_id_identity_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."identity_providers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_deletion_requests" ADD CONSTRAINT "account_deletion_requests_halted_by_users_id_fk" FOREIGN KEY ("halted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "account_deletion_requests_request" ON "account_deletion_requests" USING btree ("provider_id","request_id");--> statement-breakpoint
CREATE INDEX "account_deletion_requests_due" ON "account_deletion_requests" USING btree ("state","due_at");--> statement-breakpoint
CREATE INDEX "account_deletion_requests_user" ON "account_deletion_requests" USING btree ("user_id");