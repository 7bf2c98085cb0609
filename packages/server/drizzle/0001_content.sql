CREATE TABLE `activity_documents` (
	`activity_id` text NOT NULL,
	`kind` text NOT NULL,
	`language` text NOT NULL,
	`title` text NOT NULL,
	`valid_from` text NOT NULL,
	`file_id` text NOT NULL,
	FOREIGN KEY (`activity_id`) REFERENCES `activities`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`file_id`) REFERENCES `files`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE UNIQUE INDEX `activity_documents_pk` ON `activity_documents` (`activity_id`,`kind`,`language`);--> statement-breakpoint
CREATE INDEX `activity_documents_file` ON `activity_documents` (`file_id`);--> statement-breakpoint
CREATE TABLE `problem_shares` (
	`problem_id` text NOT NULL,
	`user_id` text NOT NULL,
	FOREIGN KEY (`problem_id`) REFERENCES `problems`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `problem_shares_pk` ON `problem_shares` (`problem_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `problem_shares_user` ON `problem_shares` (`user_id`);--> statement-breakpoint
CREATE TABLE `problem_version_files` (
	`version_id` text NOT NULL,
	`name` text NOT NULL,
	`scope` text NOT NULL,
	`role` text NOT NULL,
	`language` text,
	`file_id` text NOT NULL,
	FOREIGN KEY (`version_id`) REFERENCES `problem_versions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`file_id`) REFERENCES `files`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE UNIQUE INDEX `problem_version_files_pk` ON `problem_version_files` (`version_id`,`name`);--> statement-breakpoint
CREATE INDEX `problem_version_files_file` ON `problem_version_files` (`file_id`);--> statement-breakpoint
CREATE TABLE `problem_versions` (
	`id` text PRIMARY KEY NOT NULL,
	`problem_id` text NOT NULL,
	`version` integer NOT NULL,
	`note` text,
	`props` text,
	`package_info` text,
	`created_by` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`problem_id`) REFERENCES `problems`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `problem_versions_number` ON `problem_versions` (`problem_id`,`version`);--> statement-breakpoint
CREATE TABLE `problems` (
	`id` text PRIMARY KEY NOT NULL,
	`slug` text NOT NULL,
	`slug_key` text NOT NULL,
	`name` text NOT NULL,
	`type` text NOT NULL,
	`external` integer DEFAULT false NOT NULL,
	`owner_user_id` text,
	`visibility` text DEFAULT 'private' NOT NULL,
	`archived_at` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`owner_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `problems_slug` ON `problems` (`slug_key`);--> statement-breakpoint
CREATE INDEX `problems_owner` ON `problems` (`owner_user_id`);--> statement-breakpoint
CREATE TABLE `series` (
	`id` text PRIMARY KEY NOT NULL,
	`activity_id` text NOT NULL,
	`slug` text NOT NULL,
	`slug_key` text NOT NULL,
	`name` text NOT NULL,
	`order` integer NOT NULL,
	`start_date` text,
	`end_date` text,
	`is_open` integer DEFAULT false NOT NULL,
	`opened_at` text,
	`paused_at` text,
	`hide_problems_while_paused` integer DEFAULT false NOT NULL,
	`reveal_problem_count` integer DEFAULT true NOT NULL,
	`ranking_freeze_at` text,
	`ranking_reveal_at` text,
	`ranking_visible_from` text,
	`ranking_visible_to` text,
	`importance` integer DEFAULT 1 NOT NULL,
	`importance_scope` text DEFAULT 'activity' NOT NULL,
	`address_rules` text DEFAULT '[]' NOT NULL,
	`restrictions_enabled` integer DEFAULT false NOT NULL,
	`runner_tags` text DEFAULT '[]' NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`activity_id`) REFERENCES `activities`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `series_slug` ON `series` (`activity_id`,`slug_key`);--> statement-breakpoint
CREATE INDEX `series_activity` ON `series` (`activity_id`,`order`);--> statement-breakpoint
CREATE TABLE `series_problems` (
	`id` text PRIMARY KEY NOT NULL,
	`series_id` text NOT NULL,
	`activity_id` text NOT NULL,
	`problem_id` text NOT NULL,
	`slug` text NOT NULL,
	`slug_key` text NOT NULL,
	`name` text,
	`order` integer NOT NULL,
	`pinned_version_id` text,
	`config` text,
	`spec` text,
	`props` text,
	`max_points` integer,
	`max_upload_bytes` integer,
	`max_attachments` integer,
	`max_submissions` integer,
	`created_at` text NOT NULL,
	FOREIGN KEY (`series_id`) REFERENCES `series`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`activity_id`) REFERENCES `activities`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`problem_id`) REFERENCES `problems`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`pinned_version_id`) REFERENCES `problem_versions`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE UNIQUE INDEX `series_problems_slug` ON `series_problems` (`activity_id`,`slug_key`);--> statement-breakpoint
CREATE INDEX `series_problems_series` ON `series_problems` (`series_id`,`order`);--> statement-breakpoint
CREATE INDEX `series_problems_problem` ON `series_problems` (`problem_id`);--> statement-breakpoint
CREATE TABLE `submissions` (
	`id` text PRIMARY KEY NOT NULL,
	`activity_id` text NOT NULL,
	`series_id` text NOT NULL,
	`series_problem_id` text NOT NULL,
	`problem_version_id` text NOT NULL,
	`user_id` text NOT NULL,
	`submitted_at` text NOT NULL,
	`props` text,
	`state` text DEFAULT 'queued' NOT NULL,
	`verdict` text,
	`score` real,
	`max_score` real,
	`excluded` integer DEFAULT false NOT NULL,
	`ip_address` text,
	`session_id` text,
	`device_id` text,
	FOREIGN KEY (`activity_id`) REFERENCES `activities`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`series_id`) REFERENCES `series`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`series_problem_id`) REFERENCES `series_problems`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`problem_version_id`) REFERENCES `problem_versions`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE INDEX `submissions_assignment_user` ON `submissions` (`series_problem_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `submissions_activity` ON `submissions` (`activity_id`,`submitted_at`);--> statement-breakpoint
CREATE INDEX `submissions_user` ON `submissions` (`user_id`,`submitted_at`);--> statement-breakpoint
ALTER TABLE `activities` ADD `slug_key` text;--> statement-breakpoint
ALTER TABLE `activities` ADD `type` text DEFAULT 'contest@1' NOT NULL;--> statement-breakpoint
ALTER TABLE `activities` ADD `ranking_type` text DEFAULT 'icpc' NOT NULL;--> statement-breakpoint
ALTER TABLE `activities` ADD `time_zone` text DEFAULT 'UTC' NOT NULL;--> statement-breakpoint
ALTER TABLE `activities` ADD `start_date` text;--> statement-breakpoint
ALTER TABLE `activities` ADD `end_date` text;--> statement-breakpoint
ALTER TABLE `activities` ADD `modules` text DEFAULT '{"questions":true,"printouts":false}' NOT NULL;--> statement-breakpoint
ALTER TABLE `activities` ADD `score_visibility` text DEFAULT 'everyone' NOT NULL;--> statement-breakpoint
ALTER TABLE `activities` ADD `attachment_visibility` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `activities` ADD `props` text;--> statement-breakpoint
ALTER TABLE `activities` ADD `join_policy` text DEFAULT 'closed' NOT NULL;--> statement-breakpoint
ALTER TABLE `activities` ADD `unlisted` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `activities` ADD `join_password` text;--> statement-breakpoint
ALTER TABLE `activities` ADD `hide_ended_series_problems` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `activities` ADD `show_group_members` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `activities` ADD `max_upload_bytes` integer DEFAULT 262144 NOT NULL;--> statement-breakpoint
ALTER TABLE `activities` ADD `max_attachments` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `activities` ADD `max_submissions_per_problem` integer;--> statement-breakpoint
ALTER TABLE `activities` ADD `runner_tags` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `activities` ADD `archived_at` text;--> statement-breakpoint
ALTER TABLE `activities` ADD `published_at` text;--> statement-breakpoint
CREATE UNIQUE INDEX `activities_slug_key` ON `activities` (`slug_key`);