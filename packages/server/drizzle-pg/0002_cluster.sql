CREATE TABLE "events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" text NOT NULL,
	"message" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "servers" (
	"id" text PRIMARY KEY NOT NULL,
	"host" text NOT NULL,
	"pid" bigint NOT NULL,
	"version" text NOT NULL,
	"started_at" text NOT NULL,
	"heartbeat_at" text NOT NULL,
	"leader" smallint DEFAULT 0 NOT NULL,
	"event_cursor" bigint
);
--> statement-breakpoint
CREATE INDEX "events_created" ON "events" USING btree ("created_at");