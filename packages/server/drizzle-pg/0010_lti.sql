CREATE TABLE "lti_grades" (
	"placement_id" text NOT NULL,
	"user_id" text NOT NULL,
	"subject" text NOT NULL,
	"changes" bigint DEFAULT 0 NOT NULL,
	"sent_changes" bigint DEFAULT 0 NOT NULL,
	"next_attempt_at" text,
	"failures" bigint DEFAULT 0 NOT NULL,
	"sent_score" double precision,
	"sent_maximum" double precision,
	"sent_at" text,
	"last_error" text
);
--> statement-breakpoint
CREATE TABLE "lti_identities" (
	"platform_id" text NOT NULL,
	"subject" text NOT NULL,
	"user_id" text NOT NULL,
	"linked_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lti_keys" (
	"kid" text PRIMARY KEY NOT NULL,
	"private_key" text NOT NULL,
	"public_jwk" text NOT NULL,
	"created_at" text NOT NULL,
	"retired_at" text
);
--> statement-breakpoint
CREATE TABLE "lti_logins" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"platform_id" text NOT NULL,
	"nonce" text NOT NULL,
	"expires_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lti_placements" (
	"id" text PRIMARY KEY NOT NULL,
	"platform_id" text NOT NULL,
	"context_id" text NOT NULL,
	"resource_link_id" text NOT NULL,
	"activity_id" text NOT NULL,
	"assignment_id" text,
	"line_item_url" text,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lti_platforms" (
	"id" text PRIMARY KEY NOT NULL,
	"display_name" text NOT NULL,
	"issuer" text NOT NULL,
	"client_id" text NOT NULL,
	"deployment_id" text NOT NULL,
	"key_set_url" text NOT NULL,
	"auth_token_url" text NOT NULL,
	"auth_login_url" text NOT NULL,
	"is_identity_authority" smallint DEFAULT 0 NOT NULL,
	"identity_namespace" text,
	"username_claim" text NOT NULL,
	"enabled" smallint DEFAULT 1 NOT NULL,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lti_tickets" (
	"hash" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"target" text NOT NULL,
	"expires_at" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "lti_grades" ADD CONSTRAINT "lti_grades_placement_id_lti_placements_id_fk" FOREIGN KEY ("placement_id") REFERENCES "public"."lti_placements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_grades" ADD CONSTRAINT "lti_grades_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_identities" ADD CONSTRAINT "lti_identities_platform_id_lti_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."lti_platforms"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_identities" ADD CONSTRAINT "lti_identities_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_logins" ADD CONSTRAINT "lti_logins_platform_id_lti_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."lti_platforms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_placements" ADD CONSTRAINT "lti_placements_platform_id_lti_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."lti_platforms"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_placements" ADD CONSTRAINT "lti_placements_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_placements" ADD CONSTRAINT "lti_placements_assignment_id_series_problems_id_fk" FOREIGN KEY ("assignment_id") REFERENCES "public"."series_problems"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_tickets" ADD CONSTRAINT "lti_tickets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "lti_grades_pk" ON "lti_grades" USING btree ("placement_id","user_id");--> statement-breakpoint
CREATE INDEX "lti_grades_user" ON "lti_grades" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "lti_grades_due" ON "lti_grades" USING btree ("next_attempt_at");--> statement-breakpoint
CREATE UNIQUE INDEX "lti_identities_pk" ON "lti_identities" USING btree ("platform_id","subject");--> statement-breakpoint
CREATE INDEX "lti_identities_user" ON "lti_identities" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "lti_logins_expiry" ON "lti_logins" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "lti_placements_link" ON "lti_placements" USING btree ("platform_id","context_id","resource_link_id");--> statement-breakpoint
CREATE INDEX "lti_placements_activity" ON "lti_placements" USING btree ("activity_id");--> statement-breakpoint
CREATE UNIQUE INDEX "lti_platforms_registration" ON "lti_platforms" USING btree ("issuer","client_id","deployment_id");--> statement-breakpoint
CREATE INDEX "lti_tickets_expiry" ON "lti_tickets" USING btree ("expires_at");