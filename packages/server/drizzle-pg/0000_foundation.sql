CREATE TABLE "activities" (
	"id" text PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"created_at" text NOT NULL,
	"slug_key" text,
	"type" text DEFAULT 'contest@1' NOT NULL,
	"ranking_type" text DEFAULT 'icpc' NOT NULL,
	"time_zone" text DEFAULT 'UTC' NOT NULL,
	"start_date" text,
	"end_date" text,
	"modules" text DEFAULT '{"questions":true,"printouts":false}' NOT NULL,
	"score_visibility" text DEFAULT 'everyone' NOT NULL,
	"attachment_visibility" text DEFAULT '[]' NOT NULL,
	"props" text,
	"join_policy" text DEFAULT 'closed' NOT NULL,
	"unlisted" smallint DEFAULT 1 NOT NULL,
	"join_password" text,
	"hide_ended_series_problems" smallint DEFAULT 0 NOT NULL,
	"show_group_members" smallint DEFAULT 0 NOT NULL,
	"max_upload_bytes" bigint DEFAULT 262144 NOT NULL,
	"max_attachments" bigint DEFAULT 1 NOT NULL,
	"max_submissions_per_problem" bigint,
	"runner_tags" text DEFAULT '[]' NOT NULL,
	"archived_at" text,
	"published_at" text
);
--> statement-breakpoint
CREATE TABLE "activity_documents" (
	"activity_id" text NOT NULL,
	"kind" text NOT NULL,
	"language" text NOT NULL,
	"title" text NOT NULL,
	"valid_from" text NOT NULL,
	"file_id" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "attempt_files" (
	"attempt_id" text NOT NULL,
	"name" text NOT NULL,
	"file_id" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "attempts" (
	"id" text PRIMARY KEY NOT NULL,
	"submission_id" text NOT NULL,
	"attempt" bigint NOT NULL,
	"state" text NOT NULL,
	"priority" bigint DEFAULT 0 NOT NULL,
	"problem_version_id" text NOT NULL,
	"problem_type" text NOT NULL,
	"created_at" text NOT NULL,
	"claimed_at" text,
	"finished_at" text,
	"runner_id" text,
	"runner_name" text,
	"lease_hash" text,
	"lease_expires_at" text,
	"deliveries" bigint DEFAULT 0 NOT NULL,
	"progress_done" bigint,
	"progress_total" bigint,
	"result_id" text,
	"failed_lease_hash" text,
	"failed_report_id" text,
	"verdict" text,
	"score" double precision,
	"max_score" double precision,
	"failure_reason" text,
	"runner_version" text,
	"extra" text,
	"props" text
);
--> statement-breakpoint
CREATE TABLE "canned_answers" (
	"id" bigint PRIMARY KEY NOT NULL,
	"answers" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "files" (
	"id" text PRIMARY KEY NOT NULL,
	"sha256" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"name" text NOT NULL,
	"mime_type" text NOT NULL,
	"uploaded_by" text,
	"uploaded_by_runner" text,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "grants" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"role_id" text NOT NULL,
	"activity_id" text,
	"override_system" smallint DEFAULT 0 NOT NULL,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "instance_settings" (
	"id" bigint PRIMARY KEY NOT NULL,
	"settings" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "printouts" (
	"id" text PRIMARY KEY NOT NULL,
	"activity_id" text NOT NULL,
	"user_id" text NOT NULL,
	"title" text NOT NULL,
	"file_name" text NOT NULL,
	"source" text,
	"size_bytes" bigint NOT NULL,
	"sha256" text NOT NULL,
	"submission_id" text,
	"series_problem_id" text,
	"state" text DEFAULT 'queued' NOT NULL,
	"requested_at" text NOT NULL,
	"claimed_by_user_id" text,
	"claimed_at" text,
	"resolved_by_user_id" text,
	"resolved_at" text,
	"note" text,
	"source_disposed_at" text,
	"print_started_at" text,
	"print_finished_at" text,
	"print_exit_code" bigint,
	"print_output" text
);
--> statement-breakpoint
CREATE TABLE "problem_shares" (
	"problem_id" text NOT NULL,
	"user_id" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "problem_version_files" (
	"version_id" text NOT NULL,
	"name" text NOT NULL,
	"scope" text NOT NULL,
	"role" text NOT NULL,
	"language" text,
	"file_id" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "problem_versions" (
	"id" text PRIMARY KEY NOT NULL,
	"problem_id" text NOT NULL,
	"version" bigint NOT NULL,
	"note" text,
	"props" text,
	"package_info" text,
	"created_by" text,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "problems" (
	"id" text PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"slug_key" text NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"external" smallint DEFAULT 0 NOT NULL,
	"owner_user_id" text,
	"visibility" text DEFAULT 'private' NOT NULL,
	"archived_at" text,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "question_reads" (
	"question_id" text NOT NULL,
	"user_id" text NOT NULL,
	"read_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "questions" (
	"id" text PRIMARY KEY NOT NULL,
	"activity_id" text NOT NULL,
	"kind" text NOT NULL,
	"topic" text NOT NULL,
	"body" text NOT NULL,
	"author_user_id" text,
	"series_id" text,
	"series_problem_id" text,
	"answer_body" text,
	"answer_user_id" text,
	"answered_at" text,
	"is_published" smallint DEFAULT 0 NOT NULL,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "roles" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"name_key" text NOT NULL,
	"description" text,
	"permissions" text NOT NULL,
	"built_in_key" text,
	"activity_id" text,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "runner_enrolment_codes" (
	"id" text PRIMARY KEY NOT NULL,
	"code_hash" text NOT NULL,
	"name" text,
	"tags" text DEFAULT '[]' NOT NULL,
	"uses" bigint NOT NULL,
	"used" bigint DEFAULT 0 NOT NULL,
	"created_at" text NOT NULL,
	"expires_at" text NOT NULL,
	"last_used_at" text,
	"created_by" text
);
--> statement-breakpoint
CREATE TABLE "runner_files" (
	"runner_id" text NOT NULL,
	"name" text NOT NULL,
	"file_id" text NOT NULL,
	"attached_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "runner_tokens" (
	"hash" text PRIMARY KEY NOT NULL,
	"runner_id" text NOT NULL,
	"expires_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "runners" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"public_key" text NOT NULL,
	"fingerprint" text NOT NULL,
	"state" text NOT NULL,
	"problem_types" text NOT NULL,
	"tags" text DEFAULT '[]' NOT NULL,
	"address" text,
	"version" text,
	"registered_at" text NOT NULL,
	"approved_at" text,
	"revoked_at" text,
	"revoked_reason" text,
	"last_seen_at" text,
	"completed_jobs" bigint DEFAULT 0 NOT NULL,
	"languages" text
);
--> statement-breakpoint
CREATE TABLE "sample_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"activity_id" text NOT NULL,
	"series_problem_id" text NOT NULL,
	"problem_version_id" text NOT NULL,
	"problem_type" text NOT NULL,
	"sources" text NOT NULL,
	"language" text,
	"state" text NOT NULL,
	"created_at" text NOT NULL,
	"claimed_at" text,
	"finished_at" text,
	"runner_id" text,
	"runner_name" text,
	"lease_hash" text,
	"lease_expires_at" text,
	"verdict" text,
	"compile_output" text,
	"results" text,
	"failure_reason" text
);
--> statement-breakpoint
CREATE TABLE "series" (
	"id" text PRIMARY KEY NOT NULL,
	"activity_id" text NOT NULL,
	"slug" text NOT NULL,
	"slug_key" text NOT NULL,
	"name" text NOT NULL,
	"order" bigint NOT NULL,
	"start_date" text,
	"end_date" text,
	"is_open" smallint DEFAULT 0 NOT NULL,
	"opened_at" text,
	"paused_at" text,
	"hide_problems_while_paused" smallint DEFAULT 0 NOT NULL,
	"reveal_problem_count" smallint DEFAULT 1 NOT NULL,
	"ranking_freeze_at" text,
	"ranking_reveal_at" text,
	"ranking_visible_from" text,
	"ranking_visible_to" text,
	"importance" bigint DEFAULT 1 NOT NULL,
	"importance_scope" text DEFAULT 'activity' NOT NULL,
	"address_rules" text DEFAULT '[]' NOT NULL,
	"restrictions_enabled" smallint DEFAULT 0 NOT NULL,
	"runner_tags" text DEFAULT '[]' NOT NULL,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "series_problems" (
	"id" text PRIMARY KEY NOT NULL,
	"series_id" text NOT NULL,
	"activity_id" text NOT NULL,
	"problem_id" text NOT NULL,
	"slug" text NOT NULL,
	"slug_key" text NOT NULL,
	"name" text,
	"order" bigint NOT NULL,
	"pinned_version_id" text,
	"config" text,
	"spec" text,
	"props" text,
	"max_points" bigint,
	"max_upload_bytes" bigint,
	"max_attachments" bigint,
	"max_submissions" bigint,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "session_secrets" (
	"hash" text PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"kind" text NOT NULL,
	"expires_at" text NOT NULL,
	"rotated_at" text
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"kind" text NOT NULL,
	"started_at" text NOT NULL,
	"last_request_at" text,
	"last_request_path" text,
	"ip_address" text,
	"user_agent" text,
	"expires_at" text NOT NULL,
	"ended_at" text,
	"end_reason" text
);
--> statement-breakpoint
CREATE TABLE "submission_files" (
	"submission_id" text NOT NULL,
	"name" text NOT NULL,
	"file_name" text NOT NULL,
	"language" text,
	"file_id" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "submissions" (
	"id" text PRIMARY KEY NOT NULL,
	"activity_id" text NOT NULL,
	"series_id" text NOT NULL,
	"series_problem_id" text NOT NULL,
	"problem_version_id" text NOT NULL,
	"user_id" text NOT NULL,
	"submitted_at" text NOT NULL,
	"props" text,
	"state" text DEFAULT 'queued' NOT NULL,
	"verdict" text,
	"score" double precision,
	"max_score" double precision,
	"excluded" smallint DEFAULT 0 NOT NULL,
	"excluded_at" text,
	"excluded_by" text,
	"exclusion_reason" text,
	"attempts" bigint DEFAULT 1 NOT NULL,
	"ip_address" text,
	"session_id" text,
	"device_id" text
);
--> statement-breakpoint
CREATE TABLE "trials" (
	"id" text PRIMARY KEY NOT NULL,
	"activity_id" text,
	"created_by" text,
	"state" text NOT NULL,
	"problem_type" text NOT NULL,
	"package_file_id" text NOT NULL,
	"created_at" text NOT NULL,
	"claimed_at" text,
	"finished_at" text,
	"runner_id" text,
	"runner_name" text,
	"lease_hash" text,
	"lease_expires_at" text,
	"deliveries" bigint DEFAULT 0 NOT NULL,
	"measurement" text,
	"failure_reason" text,
	"calibrates_version_id" text
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" text PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"username_key" text NOT NULL,
	"email" text,
	"email_key" text,
	"email_confirmed" smallint DEFAULT 0 NOT NULL,
	"password_hash" text,
	"first_name" text,
	"last_name" text,
	"note" text,
	"tags" text DEFAULT '[]' NOT NULL,
	"is_local" smallint DEFAULT 1 NOT NULL,
	"is_temporary" smallint DEFAULT 0 NOT NULL,
	"origin" text DEFAULT 'staff' NOT NULL,
	"expires_at" text,
	"approved_at" text,
	"blocked_at" text,
	"blocked_reason" text,
	"failed_logins" bigint DEFAULT 0 NOT NULL,
	"locked_until" text,
	"created_at" text NOT NULL,
	"last_seen_at" text
);
--> statement-breakpoint
ALTER TABLE "activity_documents" ADD CONSTRAINT "activity_documents_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_documents" ADD CONSTRAINT "activity_documents_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attempt_files" ADD CONSTRAINT "attempt_files_attempt_id_attempts_id_fk" FOREIGN KEY ("attempt_id") REFERENCES "public"."attempts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attempt_files" ADD CONSTRAINT "attempt_files_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attempts" ADD CONSTRAINT "attempts_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attempts" ADD CONSTRAINT "attempts_problem_version_id_problem_versions_id_fk" FOREIGN KEY ("problem_version_id") REFERENCES "public"."problem_versions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attempts" ADD CONSTRAINT "attempts_runner_id_runners_id_fk" FOREIGN KEY ("runner_id") REFERENCES "public"."runners"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grants" ADD CONSTRAINT "grants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grants" ADD CONSTRAINT "grants_role_id_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."roles"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grants" ADD CONSTRAINT "grants_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "printouts" ADD CONSTRAINT "printouts_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "printouts" ADD CONSTRAINT "printouts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "printouts" ADD CONSTRAINT "printouts_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "printouts" ADD CONSTRAINT "printouts_series_problem_id_series_problems_id_fk" FOREIGN KEY ("series_problem_id") REFERENCES "public"."series_problems"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "printouts" ADD CONSTRAINT "printouts_claimed_by_user_id_users_id_fk" FOREIGN KEY ("claimed_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "printouts" ADD CONSTRAINT "printouts_resolved_by_user_id_users_id_fk" FOREIGN KEY ("resolved_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "problem_shares" ADD CONSTRAINT "problem_shares_problem_id_problems_id_fk" FOREIGN KEY ("problem_id") REFERENCES "public"."problems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "problem_shares" ADD CONSTRAINT "problem_shares_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "problem_version_files" ADD CONSTRAINT "problem_version_files_version_id_problem_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."problem_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "problem_version_files" ADD CONSTRAINT "problem_version_files_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "problem_versions" ADD CONSTRAINT "problem_versions_problem_id_problems_id_fk" FOREIGN KEY ("problem_id") REFERENCES "public"."problems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "problem_versions" ADD CONSTRAINT "problem_versions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "problems" ADD CONSTRAINT "problems_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_reads" ADD CONSTRAINT "question_reads_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_reads" ADD CONSTRAINT "question_reads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_author_user_id_users_id_fk" FOREIGN KEY ("author_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_series_id_series_id_fk" FOREIGN KEY ("series_id") REFERENCES "public"."series"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_series_problem_id_series_problems_id_fk" FOREIGN KEY ("series_problem_id") REFERENCES "public"."series_problems"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_answer_user_id_users_id_fk" FOREIGN KEY ("answer_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roles" ADD CONSTRAINT "roles_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "runner_enrolment_codes" ADD CONSTRAINT "runner_enrolment_codes_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "runner_files" ADD CONSTRAINT "runner_files_runner_id_runners_id_fk" FOREIGN KEY ("runner_id") REFERENCES "public"."runners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "runner_files" ADD CONSTRAINT "runner_files_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "runner_tokens" ADD CONSTRAINT "runner_tokens_runner_id_runners_id_fk" FOREIGN KEY ("runner_id") REFERENCES "public"."runners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sample_runs" ADD CONSTRAINT "sample_runs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sample_runs" ADD CONSTRAINT "sample_runs_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sample_runs" ADD CONSTRAINT "sample_runs_series_problem_id_series_problems_id_fk" FOREIGN KEY ("series_problem_id") REFERENCES "public"."series_problems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sample_runs" ADD CONSTRAINT "sample_runs_problem_version_id_problem_versions_id_fk" FOREIGN KEY ("problem_version_id") REFERENCES "public"."problem_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sample_runs" ADD CONSTRAINT "sample_runs_runner_id_runners_id_fk" FOREIGN KEY ("runner_id") REFERENCES "public"."runners"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "series" ADD CONSTRAINT "series_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "series_problems" ADD CONSTRAINT "series_problems_series_id_series_id_fk" FOREIGN KEY ("series_id") REFERENCES "public"."series"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "series_problems" ADD CONSTRAINT "series_problems_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "series_problems" ADD CONSTRAINT "series_problems_problem_id_problems_id_fk" FOREIGN KEY ("problem_id") REFERENCES "public"."problems"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "series_problems" ADD CONSTRAINT "series_problems_pinned_version_id_problem_versions_id_fk" FOREIGN KEY ("pinned_version_id") REFERENCES "public"."problem_versions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_secrets" ADD CONSTRAINT "session_secrets_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submission_files" ADD CONSTRAINT "submission_files_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submission_files" ADD CONSTRAINT "submission_files_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_series_id_series_id_fk" FOREIGN KEY ("series_id") REFERENCES "public"."series"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_series_problem_id_series_problems_id_fk" FOREIGN KEY ("series_problem_id") REFERENCES "public"."series_problems"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_problem_version_id_problem_versions_id_fk" FOREIGN KEY ("problem_version_id") REFERENCES "public"."problem_versions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_excluded_by_users_id_fk" FOREIGN KEY ("excluded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trials" ADD CONSTRAINT "trials_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trials" ADD CONSTRAINT "trials_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trials" ADD CONSTRAINT "trials_package_file_id_files_id_fk" FOREIGN KEY ("package_file_id") REFERENCES "public"."files"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trials" ADD CONSTRAINT "trials_runner_id_runners_id_fk" FOREIGN KEY ("runner_id") REFERENCES "public"."runners"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trials" ADD CONSTRAINT "trials_calibrates_version_id_problem_versions_id_fk" FOREIGN KEY ("calibrates_version_id") REFERENCES "public"."problem_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "activities_slug" ON "activities" USING btree ("slug");--> statement-breakpoint
CREATE UNIQUE INDEX "activities_slug_key" ON "activities" USING btree ("slug_key");--> statement-breakpoint
CREATE UNIQUE INDEX "activity_documents_pk" ON "activity_documents" USING btree ("activity_id","kind","language");--> statement-breakpoint
CREATE INDEX "activity_documents_file" ON "activity_documents" USING btree ("file_id");--> statement-breakpoint
CREATE UNIQUE INDEX "attempt_files_pk" ON "attempt_files" USING btree ("attempt_id","name");--> statement-breakpoint
CREATE INDEX "attempt_files_file" ON "attempt_files" USING btree ("file_id");--> statement-breakpoint
CREATE UNIQUE INDEX "attempts_number" ON "attempts" USING btree ("submission_id","attempt");--> statement-breakpoint
CREATE UNIQUE INDEX "attempts_result" ON "attempts" USING btree ("result_id");--> statement-breakpoint
CREATE INDEX "attempts_queue" ON "attempts" USING btree ("state","priority","created_at") WHERE state = 'queued';--> statement-breakpoint
CREATE INDEX "attempts_runner" ON "attempts" USING btree ("runner_id","state");--> statement-breakpoint
CREATE INDEX "attempts_lease" ON "attempts" USING btree ("state","lease_expires_at") WHERE state = 'running';--> statement-breakpoint
CREATE INDEX "files_sha256" ON "files" USING btree ("sha256");--> statement-breakpoint
CREATE INDEX "files_uploader" ON "files" USING btree ("uploaded_by");--> statement-breakpoint
CREATE UNIQUE INDEX "grants_membership" ON "grants" USING btree ("user_id","activity_id") WHERE activity_id is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "grants_system_role" ON "grants" USING btree ("user_id","role_id") WHERE activity_id is null;--> statement-breakpoint
CREATE INDEX "grants_activity" ON "grants" USING btree ("activity_id");--> statement-breakpoint
CREATE INDEX "grants_role" ON "grants" USING btree ("role_id");--> statement-breakpoint
CREATE INDEX "printouts_activity" ON "printouts" USING btree ("activity_id","state","requested_at");--> statement-breakpoint
CREATE INDEX "printouts_user" ON "printouts" USING btree ("user_id","activity_id");--> statement-breakpoint
CREATE INDEX "printouts_disposal" ON "printouts" USING btree ("resolved_at") WHERE source_disposed_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX "problem_shares_pk" ON "problem_shares" USING btree ("problem_id","user_id");--> statement-breakpoint
CREATE INDEX "problem_shares_user" ON "problem_shares" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "problem_version_files_pk" ON "problem_version_files" USING btree ("version_id","name");--> statement-breakpoint
CREATE INDEX "problem_version_files_file" ON "problem_version_files" USING btree ("file_id");--> statement-breakpoint
CREATE UNIQUE INDEX "problem_versions_number" ON "problem_versions" USING btree ("problem_id","version");--> statement-breakpoint
CREATE UNIQUE INDEX "problems_slug" ON "problems" USING btree ("slug_key");--> statement-breakpoint
CREATE INDEX "problems_owner" ON "problems" USING btree ("owner_user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "question_reads_pk" ON "question_reads" USING btree ("question_id","user_id");--> statement-breakpoint
CREATE INDEX "question_reads_user" ON "question_reads" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "questions_activity" ON "questions" USING btree ("activity_id","created_at");--> statement-breakpoint
CREATE INDEX "questions_author" ON "questions" USING btree ("author_user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "roles_built_in" ON "roles" USING btree ("built_in_key");--> statement-breakpoint
CREATE UNIQUE INDEX "roles_name_system" ON "roles" USING btree ("name_key") WHERE activity_id is null;--> statement-breakpoint
CREATE UNIQUE INDEX "roles_name_activity" ON "roles" USING btree ("activity_id","name_key") WHERE activity_id is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "runner_enrolment_codes_hash" ON "runner_enrolment_codes" USING btree ("code_hash");--> statement-breakpoint
CREATE INDEX "runner_enrolment_codes_expires" ON "runner_enrolment_codes" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "runner_files_pk" ON "runner_files" USING btree ("runner_id","name");--> statement-breakpoint
CREATE INDEX "runner_files_file" ON "runner_files" USING btree ("file_id");--> statement-breakpoint
CREATE INDEX "runner_tokens_runner" ON "runner_tokens" USING btree ("runner_id");--> statement-breakpoint
CREATE UNIQUE INDEX "runners_fingerprint" ON "runners" USING btree ("fingerprint");--> statement-breakpoint
CREATE INDEX "runners_registered" ON "runners" USING btree ("registered_at");--> statement-breakpoint
CREATE INDEX "sample_runs_queue" ON "sample_runs" USING btree ("state","created_at");--> statement-breakpoint
CREATE INDEX "sample_runs_user" ON "sample_runs" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "sample_runs_lease" ON "sample_runs" USING btree ("state","lease_expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "series_slug" ON "series" USING btree ("activity_id","slug_key");--> statement-breakpoint
CREATE INDEX "series_activity" ON "series" USING btree ("activity_id","order");--> statement-breakpoint
CREATE UNIQUE INDEX "series_problems_slug" ON "series_problems" USING btree ("activity_id","slug_key");--> statement-breakpoint
CREATE INDEX "series_problems_series" ON "series_problems" USING btree ("series_id","order");--> statement-breakpoint
CREATE INDEX "series_problems_problem" ON "series_problems" USING btree ("problem_id");--> statement-breakpoint
CREATE INDEX "session_secrets_session" ON "session_secrets" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "sessions_user" ON "sessions" USING btree ("user_id","started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "submission_files_pk" ON "submission_files" USING btree ("submission_id","name");--> statement-breakpoint
CREATE INDEX "submission_files_file" ON "submission_files" USING btree ("file_id");--> statement-breakpoint
CREATE INDEX "submissions_assignment_user" ON "submissions" USING btree ("series_problem_id","user_id");--> statement-breakpoint
CREATE INDEX "submissions_activity" ON "submissions" USING btree ("activity_id","submitted_at");--> statement-breakpoint
CREATE INDEX "submissions_user" ON "submissions" USING btree ("user_id","submitted_at");--> statement-breakpoint
CREATE INDEX "submissions_standings" ON "submissions" USING btree ("user_id","activity_id","series_problem_id","excluded","score","max_score");--> statement-breakpoint
CREATE INDEX "trials_queue" ON "trials" USING btree ("state","created_at");--> statement-breakpoint
CREATE INDEX "trials_creator" ON "trials" USING btree ("created_by","state");--> statement-breakpoint
CREATE INDEX "trials_lease" ON "trials" USING btree ("state","lease_expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_key" ON "users" USING btree ("username_key");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_key" ON "users" USING btree ("email_key");