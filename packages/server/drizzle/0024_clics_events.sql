CREATE TABLE `clics_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`activity_id` text NOT NULL,
	`audience` text NOT NULL,
	`type` text NOT NULL,
	`object_id` text,
	`data` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`activity_id`) REFERENCES `activities`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `clics_events_activity` ON `clics_events` (`activity_id`,`id`);