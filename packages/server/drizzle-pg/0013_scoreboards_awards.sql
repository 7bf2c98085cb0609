CREATE TABLE "activity_awards" (
	"id" text PRIMARY KEY NOT NULL,
	"activity_id" text NOT NULL,
	"award_key" text NOT NULL,
	"citation" text NOT NULL,
	"user_ids" text NOT NULL,
	"position" bigint NOT NULL,
	"adjusted" smallint DEFAULT 0 NOT NULL,
	"created_at" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "activities" ADD COLUMN "public_scoreboard" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "activities" ADD COLUMN "display_token" text;--> statement-breakpoint
ALTER TABLE "activities" ADD COLUMN "finalized_at" text;--> statement-breakpoint
ALTER TABLE "activities" ADD COLUMN "award_rules" text;--> statement-breakpoint
ALTER TABLE "activity_awards" ADD CONSTRAINT "activity_awards_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "activity_awards_key" ON "activity_awards" USING btree ("activity_id","award_key");