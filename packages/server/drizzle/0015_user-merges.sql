CREATE TABLE `user_merges` (
	`id` text PRIMARY KEY NOT NULL,
	`source_user_id` text NOT NULL,
	`target_user_id` text NOT NULL,
	`merged_at` text NOT NULL,
	`merged_by_user_id` text,
	`anonymise_after` text NOT NULL,
	`source_anonymised_at` text,
	`undone_at` text,
	`moved` text NOT NULL,
	`source_before` text NOT NULL,
	FOREIGN KEY (`source_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`target_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`merged_by_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `user_merges_source` ON `user_merges` (`source_user_id`);--> statement-breakpoint
CREATE INDEX `user_merges_target` ON `user_merges` (`target_user_id`);