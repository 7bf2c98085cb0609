CREATE TABLE `runner_enrolment_codes` (
	`id` text PRIMARY KEY NOT NULL,
	`code_hash` text NOT NULL,
	`name` text,
	`tags` text DEFAULT '[]' NOT NULL,
	`uses` integer NOT NULL,
	`used` integer DEFAULT 0 NOT NULL,
	`created_at` text NOT NULL,
	`expires_at` text NOT NULL,
	`last_used_at` text,
	`created_by` text,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `runner_enrolment_codes_hash` ON `runner_enrolment_codes` (`code_hash`);--> statement-breakpoint
CREATE INDEX `runner_enrolment_codes_expires` ON `runner_enrolment_codes` (`expires_at`);