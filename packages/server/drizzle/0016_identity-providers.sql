CREATE TABLE `identity_providers` (
	`id` text PRIMARY KEY NOT NULL,
	`slug` text NOT NULL,
	`display_name` text NOT NULL,
	`issuer` text NOT NULL,
	`client_id` text NOT NULL,
	`client_secret` text,
	`scopes` text NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`account_url` text,
	`deletion_url` text,
	`claim_path` text,
	`unmapped_behavior` text NOT NULL,
	`default_template_name` text,
	`deletion_channel_enabled` integer DEFAULT false NOT NULL,
	`deletion_secret` text,
	`mapping_rules` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `identity_providers_slug` ON `identity_providers` (`slug`);--> statement-breakpoint
CREATE TABLE `user_identities` (
	`provider_id` text NOT NULL,
	`subject` text NOT NULL,
	`user_id` text NOT NULL,
	`linked_at` text NOT NULL,
	FOREIGN KEY (`provider_id`) REFERENCES `identity_providers`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `user_identities_pk` ON `user_identities` (`provider_id`,`subject`);--> statement-breakpoint
CREATE INDEX `user_identities_user` ON `user_identities` (`user_id`);