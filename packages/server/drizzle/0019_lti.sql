CREATE TABLE `lti_grades` (
	`placement_id` text NOT NULL,
	`user_id` text NOT NULL,
	`subject` text NOT NULL,
	`changes` integer DEFAULT 0 NOT NULL,
	`sent_changes` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` text,
	`failures` integer DEFAULT 0 NOT NULL,
	`sent_score` real,
	`sent_maximum` real,
	`sent_at` text,
	`last_error` text,
	FOREIGN KEY (`placement_id`) REFERENCES `lti_placements`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `lti_grades_pk` ON `lti_grades` (`placement_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `lti_grades_user` ON `lti_grades` (`user_id`);--> statement-breakpoint
CREATE INDEX `lti_grades_due` ON `lti_grades` (`next_attempt_at`);--> statement-breakpoint
CREATE TABLE `lti_identities` (
	`platform_id` text NOT NULL,
	`subject` text NOT NULL,
	`user_id` text NOT NULL,
	`linked_at` text NOT NULL,
	FOREIGN KEY (`platform_id`) REFERENCES `lti_platforms`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `lti_identities_pk` ON `lti_identities` (`platform_id`,`subject`);--> statement-breakpoint
CREATE INDEX `lti_identities_user` ON `lti_identities` (`user_id`);--> statement-breakpoint
CREATE TABLE `lti_keys` (
	`kid` text PRIMARY KEY NOT NULL,
	`private_key` text NOT NULL,
	`public_jwk` text NOT NULL,
	`created_at` text NOT NULL,
	`retired_at` text
);
--> statement-breakpoint
CREATE TABLE `lti_logins` (
	`state_hash` text PRIMARY KEY NOT NULL,
	`platform_id` text NOT NULL,
	`nonce` text NOT NULL,
	`expires_at` text NOT NULL,
	FOREIGN KEY (`platform_id`) REFERENCES `lti_platforms`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `lti_logins_expiry` ON `lti_logins` (`expires_at`);--> statement-breakpoint
CREATE TABLE `lti_placements` (
	`id` text PRIMARY KEY NOT NULL,
	`platform_id` text NOT NULL,
	`context_id` text NOT NULL,
	`resource_link_id` text NOT NULL,
	`activity_id` text NOT NULL,
	`assignment_id` text,
	`line_item_url` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`platform_id`) REFERENCES `lti_platforms`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`activity_id`) REFERENCES `activities`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`assignment_id`) REFERENCES `series_problems`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `lti_placements_link` ON `lti_placements` (`platform_id`,`context_id`,`resource_link_id`);--> statement-breakpoint
CREATE INDEX `lti_placements_activity` ON `lti_placements` (`activity_id`);--> statement-breakpoint
CREATE TABLE `lti_platforms` (
	`id` text PRIMARY KEY NOT NULL,
	`display_name` text NOT NULL,
	`issuer` text NOT NULL,
	`client_id` text NOT NULL,
	`deployment_id` text NOT NULL,
	`key_set_url` text NOT NULL,
	`auth_token_url` text NOT NULL,
	`auth_login_url` text NOT NULL,
	`is_identity_authority` integer DEFAULT false NOT NULL,
	`identity_namespace` text,
	`username_claim` text NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `lti_platforms_registration` ON `lti_platforms` (`issuer`,`client_id`,`deployment_id`);--> statement-breakpoint
CREATE TABLE `lti_tickets` (
	`hash` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`target` text NOT NULL,
	`expires_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `lti_tickets_expiry` ON `lti_tickets` (`expires_at`);