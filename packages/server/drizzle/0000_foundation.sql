CREATE TABLE `activities` (
	`id` text PRIMARY KEY NOT NULL,
	`slug` text NOT NULL,
	`name` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `activities_slug` ON `activities` (`slug`);--> statement-breakpoint
CREATE TABLE `files` (
	`id` text PRIMARY KEY NOT NULL,
	`sha256` text NOT NULL,
	`size_bytes` integer NOT NULL,
	`name` text NOT NULL,
	`mime_type` text NOT NULL,
	`uploaded_by` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`uploaded_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `files_sha256` ON `files` (`sha256`);--> statement-breakpoint
CREATE INDEX `files_uploader` ON `files` (`uploaded_by`);--> statement-breakpoint
CREATE TABLE `grants` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`role_id` text NOT NULL,
	`activity_id` text,
	`override_system` integer DEFAULT false NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`role_id`) REFERENCES `roles`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`activity_id`) REFERENCES `activities`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `grants_membership` ON `grants` (`user_id`,`activity_id`) WHERE activity_id is not null;--> statement-breakpoint
CREATE UNIQUE INDEX `grants_system_role` ON `grants` (`user_id`,`role_id`) WHERE activity_id is null;--> statement-breakpoint
CREATE INDEX `grants_activity` ON `grants` (`activity_id`);--> statement-breakpoint
CREATE INDEX `grants_role` ON `grants` (`role_id`);--> statement-breakpoint
CREATE TABLE `instance_settings` (
	`id` integer PRIMARY KEY NOT NULL,
	`settings` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `roles` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`name_key` text NOT NULL,
	`description` text,
	`permissions` text NOT NULL,
	`built_in_key` text,
	`activity_id` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`activity_id`) REFERENCES `activities`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `roles_built_in` ON `roles` (`built_in_key`);--> statement-breakpoint
CREATE UNIQUE INDEX `roles_name_system` ON `roles` (`name_key`) WHERE activity_id is null;--> statement-breakpoint
CREATE UNIQUE INDEX `roles_name_activity` ON `roles` (`activity_id`,`name_key`) WHERE activity_id is not null;--> statement-breakpoint
CREATE TABLE `session_secrets` (
	`hash` text PRIMARY KEY NOT NULL,
	`session_id` text NOT NULL,
	`kind` text NOT NULL,
	`expires_at` text NOT NULL,
	`rotated_at` text,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `session_secrets_session` ON `session_secrets` (`session_id`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`started_at` text NOT NULL,
	`last_request_at` text,
	`last_request_path` text,
	`ip_address` text,
	`user_agent` text,
	`expires_at` text NOT NULL,
	`ended_at` text,
	`end_reason` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_user` ON `sessions` (`user_id`,`started_at`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`username` text NOT NULL,
	`username_key` text NOT NULL,
	`email` text,
	`email_key` text,
	`email_confirmed` integer DEFAULT false NOT NULL,
	`password_hash` text,
	`first_name` text,
	`last_name` text,
	`note` text,
	`tags` text DEFAULT '[]' NOT NULL,
	`is_local` integer DEFAULT true NOT NULL,
	`is_temporary` integer DEFAULT false NOT NULL,
	`expires_at` text,
	`approved_at` text,
	`blocked_at` text,
	`blocked_reason` text,
	`failed_logins` integer DEFAULT 0 NOT NULL,
	`locked_until` text,
	`created_at` text NOT NULL,
	`last_seen_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_username_key` ON `users` (`username_key`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_key` ON `users` (`email_key`);