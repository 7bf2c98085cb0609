CREATE TABLE "instance_access_keys" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"expires_at" text,
	"updated_at" text NOT NULL,
	"updated_by" text
);
--> statement-breakpoint
CREATE TABLE "instance_documents" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"language" text NOT NULL,
	"title" text NOT NULL,
	"valid_from" text NOT NULL,
	"file_id" text NOT NULL,
	"created_at" text NOT NULL,
	"created_by" text,
	"withdrawn_at" text
);
--> statement-breakpoint
ALTER TABLE "instance_access_keys" ADD CONSTRAINT "instance_access_keys_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instance_documents" ADD CONSTRAINT "instance_documents_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instance_documents" ADD CONSTRAINT "instance_documents_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "instance_documents_kind" ON "instance_documents" USING btree ("kind","language","valid_from");--> statement-breakpoint
CREATE INDEX "instance_documents_file" ON "instance_documents" USING btree ("file_id");