-- The built-in Manager role works its activity's printout queue too (printout:manage): a
-- co-manager does everything staff do in the activity. Roles seeded before carry it from here on;
-- a manager role that has it already is left as it is.
UPDATE `roles` SET `permissions` = json_insert(`permissions`, '$[#]', 'printout:manage')
WHERE `built_in_key` = 'manager'
  AND NOT EXISTS (SELECT 1 FROM json_each(`roles`.`permissions`) WHERE json_each.value = 'printout:manage');
