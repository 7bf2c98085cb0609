CREATE TABLE `activity_awards` (
	`id` text PRIMARY KEY NOT NULL,
	`activity_id` text NOT NULL,
	`award_key` text NOT NULL,
	`citation` text NOT NULL,
	`user_ids` text NOT NULL,
	`position` integer NOT NULL,
	`adjusted` integer DEFAULT false NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`activity_id`) REFERENCES `activities`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `activity_awards_key` ON `activity_awards` (`activity_id`,`award_key`);--> statement-breakpoint
ALTER TABLE `activities` ADD `public_scoreboard` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `activities` ADD `display_token` text;--> statement-breakpoint
ALTER TABLE `activities` ADD `finalized_at` text;--> statement-breakpoint
ALTER TABLE `activities` ADD `award_rules` text;