CREATE TABLE `oidc_logins` (
	`state_hash` text PRIMARY KEY NOT NULL,
	`provider_id` text NOT NULL,
	`code_verifier` text NOT NULL,
	`nonce` text NOT NULL,
	`redirect_uri` text NOT NULL,
	`return_url` text NOT NULL,
	`remember` integer NOT NULL,
	`expires_at` text NOT NULL,
	FOREIGN KEY (`provider_id`) REFERENCES `identity_providers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `grants` ADD `source_provider_id` text REFERENCES identity_providers(id) ON DELETE cascade;