CREATE TABLE `events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`created_at` text NOT NULL,
	`message` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `events_created` ON `events` (`created_at`);--> statement-breakpoint
CREATE TABLE `servers` (
	`id` text PRIMARY KEY NOT NULL,
	`host` text NOT NULL,
	`pid` integer NOT NULL,
	`version` text NOT NULL,
	`started_at` text NOT NULL,
	`heartbeat_at` text NOT NULL,
	`leader` integer DEFAULT false NOT NULL,
	`event_cursor` integer
);
