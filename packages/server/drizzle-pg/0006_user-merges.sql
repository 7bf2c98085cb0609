CREATE TABLE "user_merges" (
	"id" text PRIMARY KEY NOT NULL,
	"source_user_id" text NOT NULL,
	"target_user_id" text NOT NULL,
	"merged_at" text NOT NULL,
	"merged_by_user_id" text,
	"anonymise_after" text NOT NULL,
	"source_anonymised_at" text,
	"undone_at" text,
	"moved" text NOT NULL,
	"source_before" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "user_merges" ADD CONSTRAINT "user_merges_source_user_id_users_id_fk" FOREIGN KEY ("source_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_merges" ADD CONSTRAINT "user_merges_target_user_id_users_id_fk" FOREIGN KEY ("target_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_merges" ADD CONSTRAINT "user_merges_merged_by_user_id_users_id_fk" FOREIGN KEY ("merged_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_merges_source" ON "user_merges" USING btree ("source_user_id");--> statement-breakpoint
CREATE INDEX "user_merges_target" ON "user_merges" USING btree ("target_user_id");