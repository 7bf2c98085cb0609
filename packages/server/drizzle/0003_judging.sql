CREATE TABLE `attempt_files` (
	`attempt_id` text NOT NULL,
	`name` text NOT NULL,
	`file_id` text NOT NULL,
	FOREIGN KEY (`attempt_id`) REFERENCES `attempts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`file_id`) REFERENCES `files`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE UNIQUE INDEX `attempt_files_pk` ON `attempt_files` (`attempt_id`,`name`);--> statement-breakpoint
CREATE INDEX `attempt_files_file` ON `attempt_files` (`file_id`);--> statement-breakpoint
CREATE TABLE `attempts` (
	`id` text PRIMARY KEY NOT NULL,
	`submission_id` text NOT NULL,
	`attempt` integer NOT NULL,
	`state` text NOT NULL,
	`priority` integer DEFAULT 0 NOT NULL,
	`problem_version_id` text NOT NULL,
	`problem_type` text NOT NULL,
	`created_at` text NOT NULL,
	`claimed_at` text,
	`finished_at` text,
	`runner_id` text,
	`runner_name` text,
	`lease_hash` text,
	`lease_expires_at` text,
	`deliveries` integer DEFAULT 0 NOT NULL,
	`progress_done` integer,
	`progress_total` integer,
	`result_id` text,
	`failed_lease_hash` text,
	`failed_report_id` text,
	`verdict` text,
	`score` real,
	`max_score` real,
	`failure_reason` text,
	`runner_version` text,
	`extra` text,
	`props` text,
	FOREIGN KEY (`submission_id`) REFERENCES `submissions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`problem_version_id`) REFERENCES `problem_versions`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`runner_id`) REFERENCES `runners`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `attempts_number` ON `attempts` (`submission_id`,`attempt`);--> statement-breakpoint
CREATE UNIQUE INDEX `attempts_result` ON `attempts` (`result_id`);--> statement-breakpoint
CREATE INDEX `attempts_queue` ON `attempts` (`state`,`priority`,`created_at`);--> statement-breakpoint
CREATE INDEX `attempts_runner` ON `attempts` (`runner_id`,`state`);--> statement-breakpoint
CREATE INDEX `attempts_lease` ON `attempts` (`state`,`lease_expires_at`);--> statement-breakpoint
CREATE TABLE `runner_files` (
	`runner_id` text NOT NULL,
	`name` text NOT NULL,
	`file_id` text NOT NULL,
	`attached_at` text NOT NULL,
	FOREIGN KEY (`runner_id`) REFERENCES `runners`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`file_id`) REFERENCES `files`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE UNIQUE INDEX `runner_files_pk` ON `runner_files` (`runner_id`,`name`);--> statement-breakpoint
CREATE INDEX `runner_files_file` ON `runner_files` (`file_id`);--> statement-breakpoint
CREATE TABLE `runner_tokens` (
	`hash` text PRIMARY KEY NOT NULL,
	`runner_id` text NOT NULL,
	`expires_at` text NOT NULL,
	FOREIGN KEY (`runner_id`) REFERENCES `runners`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `runner_tokens_runner` ON `runner_tokens` (`runner_id`);--> statement-breakpoint
CREATE TABLE `runners` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`public_key` text NOT NULL,
	`fingerprint` text NOT NULL,
	`state` text NOT NULL,
	`problem_types` text NOT NULL,
	`tags` text DEFAULT '[]' NOT NULL,
	`address` text,
	`version` text,
	`registered_at` text NOT NULL,
	`approved_at` text,
	`revoked_at` text,
	`revoked_reason` text,
	`last_seen_at` text,
	`completed_jobs` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `runners_fingerprint` ON `runners` (`fingerprint`);--> statement-breakpoint
CREATE INDEX `runners_registered` ON `runners` (`registered_at`);--> statement-breakpoint
CREATE TABLE `submission_files` (
	`submission_id` text NOT NULL,
	`name` text NOT NULL,
	`file_name` text NOT NULL,
	`language` text,
	`file_id` text NOT NULL,
	FOREIGN KEY (`submission_id`) REFERENCES `submissions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`file_id`) REFERENCES `files`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE UNIQUE INDEX `submission_files_pk` ON `submission_files` (`submission_id`,`name`);--> statement-breakpoint
CREATE INDEX `submission_files_file` ON `submission_files` (`file_id`);--> statement-breakpoint
CREATE TABLE `trials` (
	`id` text PRIMARY KEY NOT NULL,
	`activity_id` text,
	`created_by` text,
	`state` text NOT NULL,
	`problem_type` text NOT NULL,
	`package_file_id` text NOT NULL,
	`created_at` text NOT NULL,
	`claimed_at` text,
	`finished_at` text,
	`runner_id` text,
	`runner_name` text,
	`lease_hash` text,
	`lease_expires_at` text,
	`deliveries` integer DEFAULT 0 NOT NULL,
	`measurement` text,
	`failure_reason` text,
	FOREIGN KEY (`activity_id`) REFERENCES `activities`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`package_file_id`) REFERENCES `files`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`runner_id`) REFERENCES `runners`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `trials_queue` ON `trials` (`state`,`created_at`);--> statement-breakpoint
CREATE INDEX `trials_creator` ON `trials` (`created_by`,`state`);--> statement-breakpoint
CREATE INDEX `trials_lease` ON `trials` (`state`,`lease_expires_at`);--> statement-breakpoint
ALTER TABLE `files` ADD `uploaded_by_runner` text;--> statement-breakpoint
ALTER TABLE `submissions` ADD `excluded_at` text;--> statement-breakpoint
ALTER TABLE `submissions` ADD `excluded_by` text REFERENCES users(id) ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE `submissions` ADD `exclusion_reason` text;--> statement-breakpoint
ALTER TABLE `submissions` ADD `attempts` integer DEFAULT 1 NOT NULL;