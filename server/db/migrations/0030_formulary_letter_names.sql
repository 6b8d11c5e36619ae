-- The shipped formulary's products named with their ingredients' one-letter parts in capitals
-- (domain/formulary.ts formularyName): 'Penicillin V', 'Polymyxin B'. Only the starter's rows
-- still under their first name change; a clinic's own items, and any it renamed, stay as they are.
UPDATE "formulary_items" SET "name" = 'Penicillin V 250 mg tablet' WHERE "source" = 'starter' AND "name" = 'Penicillin v 250 mg tablet';--> statement-breakpoint
UPDATE "formulary_items" SET "name" = 'Penicillin V 500 mg tablet' WHERE "source" = 'starter' AND "name" = 'Penicillin v 500 mg tablet';--> statement-breakpoint
UPDATE "formulary_items" SET "name" = 'Polymyxin B / trimethoprim 10,000 units/1 mg per mL eye drops' WHERE "source" = 'starter' AND "name" = 'Polymyxin b / trimethoprim 10,000 units/1 mg per mL eye drops';
