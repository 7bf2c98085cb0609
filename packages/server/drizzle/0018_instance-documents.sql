CREATE TABLE `instance_access_keys` (
	`name` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`expires_at` text,
	`updated_at` text NOT NULL,
	`updated_by` text,
	FOREIGN KEY (`updated_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE TABLE `instance_documents` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`language` text NOT NULL,
	`title` text NOT NULL,
	`valid_from` text NOT NULL,
	`file_id` text NOT NULL,
	`created_at` text NOT NULL,
	`created_by` text,
	`withdrawn_at` text,
	FOREIGN KEY (`file_id`) REFERENCES `files`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `instance_documents_kind` ON `instance_documents` (`kind`,`language`,`valid_from`);--> statement-breakpoint
CREATE INDEX `instance_documents_file` ON `instance_documents` (`file_id`);