CREATE TABLE "clics_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "clics_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"activity_id" text NOT NULL,
	"audience" text NOT NULL,
	"type" text NOT NULL,
	"object_id" text,
	"data" text,
	"created_at" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "clics_events" ADD CONSTRAINT "clics_events_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "clics_events_activity" ON "clics_events" USING btree ("activity_id","id");