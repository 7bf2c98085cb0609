CREATE TABLE "identity_providers" (
	"id" text PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"display_name" text NOT NULL,
	"issuer" text NOT NULL,
	"client_id" text NOT NULL,
	"client_secret" text,
	"scopes" text NOT NULL,
	"enabled" smallint DEFAULT 1 NOT NULL,
	"account_url" text,
	"deletion_url" text,
	"claim_path" text,
	"unmapped_behavior" text NOT NULL,
	"default_template_name" text,
	"deletion_channel_enabled" smallint DEFAULT 0 NOT NULL,
	"deletion_secret" text,
	"mapping_rules" text NOT NULL,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_identities" (
	"provider_id" text NOT NULL,
	"subject" text NOT NULL,
	"user_id" text NOT NULL,
	"linked_at" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "user_identities" ADD CONSTRAINT "user_identities_provider_id_identity_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."identity_providers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_identities" ADD CONSTRAINT "user_identities_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "identity_providers_slug" ON "identity_providers" USING btree ("slug");--> statement-breakpoint
CREATE UNIQUE INDEX "user_identities_pk" ON "user_identities" USING btree ("provider_id","subject");--> statement-breakpoint
CREATE INDEX "user_identities_user" ON "user_identities" USING btree ("user_id");