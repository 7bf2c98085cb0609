CREATE TABLE `account_deletion_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text,
	`provider_id` text,
	`request_id` text,
	`channel` text NOT NULL,
	`state` text NOT NULL,
	`requested_at` text NOT NULL,
	`due_at` text NOT NULL,
	`done_at` text,
	`halted_by` text,
	`note` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`provider_id`) REFERENCES `identity_providers`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`halted_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `account_deletion_requests_request` ON `account_deletion_requests` (`provider_id`,`request_id`);--> statement-breakpoint
CREATE INDEX `account_deletion_requests_due` ON `account_deletion_requests` (`state`,`due_at`);--> statement-breakpoint
CREATE INDEX `account_deletion_requests_user` ON `account_deletion_requests` (`user_id`);