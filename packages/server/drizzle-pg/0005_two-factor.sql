CREATE TABLE "remembered_machines" (
	"hash" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"created_at" text NOT NULL,
	"expires_at" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "two_factor_key" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "two_factor_enabled" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "two_factor_step" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "recovery_codes" text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE "remembered_machines" ADD CONSTRAINT "remembered_machines_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "remembered_machines_user" ON "remembered_machines" USING btree ("user_id");