ALTER TYPE "public"."notification_type" ADD VALUE 'prescription_to_sign';--> statement-breakpoint
CREATE TABLE "prescription_revisions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"prescription_id" uuid NOT NULL,
	"action" varchar(20) NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"actor_id" uuid NOT NULL,
	"before" jsonb,
	"after" jsonb,
	"reason" text
);
--> statement-breakpoint
CREATE TABLE "prescriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" serial NOT NULL,
	"patient_id" uuid NOT NULL,
	"appointment_id" uuid,
	"formulary_id" uuid NOT NULL,
	"medication_name" varchar(300) NOT NULL,
	"schedule" varchar(4),
	"sig" jsonb NOT NULL,
	"quantity" double precision NOT NULL,
	"quantity_unit" varchar(20) NOT NULL,
	"refills" integer DEFAULT 0 NOT NULL,
	"days_supply" integer,
	"substitution_allowed" boolean DEFAULT true NOT NULL,
	"pharmacy_note" text,
	"diagnosis_id" uuid,
	"status" varchar(20) NOT NULL,
	"status_reason" text,
	"prescriber_id" uuid NOT NULL,
	"prepared_by_id" uuid NOT NULL,
	"signed_at" timestamp with time zone,
	"signed_by_id" uuid,
	"sent_at" timestamp with time zone,
	"sent_via" varchar(20),
	"print_count" integer DEFAULT 0 NOT NULL,
	"ended_at" timestamp with time zone,
	"ended_by_id" uuid,
	"alerts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"replaces_id" uuid,
	"replace_kind" varchar(10),
	"medication_entry_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "prescriptions_number_unique" UNIQUE("number"),
	CONSTRAINT "prescriptions_quantity_positive" CHECK ("prescriptions"."quantity" > 0),
	CONSTRAINT "prescriptions_refills_range" CHECK ("prescriptions"."refills" between 0 and 11)
);
--> statement-breakpoint
ALTER TABLE "formulary_items" ADD COLUMN "max_daily_dose" double precision;--> statement-breakpoint
ALTER TABLE "formulary_items" ADD COLUMN "max_daily_dose_unit" varchar(20);--> statement-breakpoint
ALTER TABLE "formulary_items" ADD COLUMN "brand_names" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "prescription_revisions" ADD CONSTRAINT "prescription_revisions_prescription_id_prescriptions_id_fk" FOREIGN KEY ("prescription_id") REFERENCES "public"."prescriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescription_revisions" ADD CONSTRAINT "prescription_revisions_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescriptions" ADD CONSTRAINT "prescriptions_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescriptions" ADD CONSTRAINT "prescriptions_appointment_id_appointments_id_fk" FOREIGN KEY ("appointment_id") REFERENCES "public"."appointments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescriptions" ADD CONSTRAINT "prescriptions_formulary_id_formulary_items_id_fk" FOREIGN KEY ("formulary_id") REFERENCES "public"."formulary_items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescriptions" ADD CONSTRAINT "prescriptions_diagnosis_id_patient_problems_id_fk" FOREIGN KEY ("diagnosis_id") REFERENCES "public"."patient_problems"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescriptions" ADD CONSTRAINT "prescriptions_prescriber_id_users_id_fk" FOREIGN KEY ("prescriber_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescriptions" ADD CONSTRAINT "prescriptions_prepared_by_id_users_id_fk" FOREIGN KEY ("prepared_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescriptions" ADD CONSTRAINT "prescriptions_signed_by_id_users_id_fk" FOREIGN KEY ("signed_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescriptions" ADD CONSTRAINT "prescriptions_ended_by_id_users_id_fk" FOREIGN KEY ("ended_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescriptions" ADD CONSTRAINT "prescriptions_replaces_id_prescriptions_id_fk" FOREIGN KEY ("replaces_id") REFERENCES "public"."prescriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescriptions" ADD CONSTRAINT "prescriptions_medication_entry_id_patient_medications_id_fk" FOREIGN KEY ("medication_entry_id") REFERENCES "public"."patient_medications"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "prescription_revisions_idx" ON "prescription_revisions" USING btree ("prescription_id","at");--> statement-breakpoint
CREATE INDEX "prescriptions_patient_idx" ON "prescriptions" USING btree ("patient_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "prescriptions_recent_idx" ON "prescriptions" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "prescriptions_to_sign_idx" ON "prescriptions" USING btree ("prescriber_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "prescriptions"."status" = 'draft';--> statement-breakpoint
CREATE INDEX "prescriptions_prepared_idx" ON "prescriptions" USING btree ("prepared_by_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "prescriptions"."status" = 'draft';--> statement-breakpoint
CREATE INDEX "prescriptions_in_force_idx" ON "prescriptions" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "prescriptions"."status" in ('signed', 'active');--> statement-breakpoint
CREATE INDEX "formulary_items_ingredients_idx" ON "formulary_items" USING gin ("ingredients");--> statement-breakpoint
-- The dose check's ceilings (issue 52): the most an adult's oral daily dose comes to by the US
-- label (FDA prescribing information) of each ingredient, on the starter list's single-ingredient,
-- immediate-release oral products. Where a label's ceiling depends on the indication or the form,
-- the highest is taken: an alert that cries wolf is ignored. A clinic sets or clears its own.
UPDATE "formulary_items" f SET "max_daily_dose" = c.mg, "max_daily_dose_unit" = 'mg'
FROM (VALUES
  ('acetaminophen', 4000),
  ('ibuprofen', 3200),
  ('naproxen', 1500),
  ('meloxicam', 15),
  ('celecoxib', 400),
  ('diclofenac', 200),
  ('metformin', 2550),
  ('glipizide', 40),
  ('glimepiride', 8),
  ('lisinopril', 80),
  ('losartan', 100),
  ('amlodipine', 10),
  ('atorvastatin', 80),
  ('rosuvastatin', 40),
  ('pravastatin', 80),
  ('simvastatin', 40),
  ('sertraline', 200),
  ('fluoxetine', 80),
  ('citalopram', 40),
  ('escitalopram', 20),
  ('paroxetine', 60),
  ('duloxetine', 120),
  ('bupropion', 450),
  ('trazodone', 400),
  ('gabapentin', 3600),
  ('pregabalin', 600),
  ('tramadol', 400),
  ('cyclobenzaprine', 30),
  ('allopurinol', 800),
  ('furosemide', 600),
  ('spironolactone', 400),
  ('cetirizine', 10),
  ('loratadine', 10),
  ('fexofenadine', 180),
  ('montelukast', 10),
  ('zolpidem', 10),
  ('alprazolam', 10),
  ('lorazepam', 10),
  ('clonazepam', 20),
  ('quetiapine', 800),
  ('aripiprazole', 30),
  ('mirtazapine', 45),
  ('buspirone', 60),
  ('levetiracetam', 3000),
  ('topiramate', 400),
  ('sumatriptan', 200),
  ('rizatriptan', 30)
) AS c(ingredient, mg)
WHERE f."source" = 'starter' AND f."route" = 'oral' AND f."ingredients" = ARRAY[c.ingredient]::text[]
  AND f."dose_form" IN ('tablet', 'capsule', 'chewable tablet', 'orally disintegrating tablet');
--> statement-breakpoint
-- Brand names a prescriber may type (lower case, search terms only: the product stays the generic).
UPDATE "formulary_items" f SET "brand_names" = b.names
FROM (VALUES
  (ARRAY['acetaminophen']::text[], ARRAY['tylenol']::text[]),
  (ARRAY['ibuprofen']::text[], ARRAY['advil', 'motrin']::text[]),
  (ARRAY['naproxen']::text[], ARRAY['naprosyn', 'aleve']::text[]),
  (ARRAY['atorvastatin']::text[], ARRAY['lipitor']::text[]),
  (ARRAY['rosuvastatin']::text[], ARRAY['crestor']::text[]),
  (ARRAY['simvastatin']::text[], ARRAY['zocor']::text[]),
  (ARRAY['pravastatin']::text[], ARRAY['pravachol']::text[]),
  (ARRAY['lisinopril']::text[], ARRAY['prinivil', 'zestril']::text[]),
  (ARRAY['losartan']::text[], ARRAY['cozaar']::text[]),
  (ARRAY['amlodipine']::text[], ARRAY['norvasc']::text[]),
  (ARRAY['metformin']::text[], ARRAY['glucophage']::text[]),
  (ARRAY['glipizide']::text[], ARRAY['glucotrol']::text[]),
  (ARRAY['sertraline']::text[], ARRAY['zoloft']::text[]),
  (ARRAY['fluoxetine']::text[], ARRAY['prozac']::text[]),
  (ARRAY['citalopram']::text[], ARRAY['celexa']::text[]),
  (ARRAY['escitalopram']::text[], ARRAY['lexapro']::text[]),
  (ARRAY['paroxetine']::text[], ARRAY['paxil']::text[]),
  (ARRAY['duloxetine']::text[], ARRAY['cymbalta']::text[]),
  (ARRAY['bupropion']::text[], ARRAY['wellbutrin']::text[]),
  (ARRAY['gabapentin']::text[], ARRAY['neurontin']::text[]),
  (ARRAY['pregabalin']::text[], ARRAY['lyrica']::text[]),
  (ARRAY['tramadol']::text[], ARRAY['ultram']::text[]),
  (ARRAY['cyclobenzaprine']::text[], ARRAY['flexeril']::text[]),
  (ARRAY['allopurinol']::text[], ARRAY['zyloprim']::text[]),
  (ARRAY['furosemide']::text[], ARRAY['lasix']::text[]),
  (ARRAY['cetirizine']::text[], ARRAY['zyrtec']::text[]),
  (ARRAY['loratadine']::text[], ARRAY['claritin']::text[]),
  (ARRAY['fexofenadine']::text[], ARRAY['allegra']::text[]),
  (ARRAY['montelukast']::text[], ARRAY['singulair']::text[]),
  (ARRAY['zolpidem']::text[], ARRAY['ambien']::text[]),
  (ARRAY['alprazolam']::text[], ARRAY['xanax']::text[]),
  (ARRAY['lorazepam']::text[], ARRAY['ativan']::text[]),
  (ARRAY['clonazepam']::text[], ARRAY['klonopin']::text[]),
  (ARRAY['quetiapine']::text[], ARRAY['seroquel']::text[]),
  (ARRAY['aripiprazole']::text[], ARRAY['abilify']::text[]),
  (ARRAY['mirtazapine']::text[], ARRAY['remeron']::text[]),
  (ARRAY['levetiracetam']::text[], ARRAY['keppra']::text[]),
  (ARRAY['topiramate']::text[], ARRAY['topamax']::text[]),
  (ARRAY['sumatriptan']::text[], ARRAY['imitrex']::text[]),
  (ARRAY['warfarin']::text[], ARRAY['coumadin', 'jantoven']::text[]),
  (ARRAY['levothyroxine']::text[], ARRAY['synthroid', 'levoxyl']::text[]),
  (ARRAY['amoxicillin']::text[], ARRAY['amoxil']::text[]),
  (ARRAY['amoxicillin', 'clavulanate']::text[], ARRAY['augmentin']::text[]),
  (ARRAY['azithromycin']::text[], ARRAY['zithromax']::text[]),
  (ARRAY['cephalexin']::text[], ARRAY['keflex']::text[]),
  (ARRAY['ciprofloxacin']::text[], ARRAY['cipro']::text[]),
  (ARRAY['doxycycline']::text[], ARRAY['vibramycin']::text[]),
  (ARRAY['sulfamethoxazole', 'trimethoprim']::text[], ARRAY['bactrim']::text[]),
  (ARRAY['omeprazole']::text[], ARRAY['prilosec']::text[]),
  (ARRAY['pantoprazole']::text[], ARRAY['protonix']::text[]),
  (ARRAY['famotidine']::text[], ARRAY['pepcid']::text[]),
  (ARRAY['apixaban']::text[], ARRAY['eliquis']::text[]),
  (ARRAY['rivaroxaban']::text[], ARRAY['xarelto']::text[]),
  (ARRAY['clopidogrel']::text[], ARRAY['plavix']::text[]),
  (ARRAY['albuterol']::text[], ARRAY['proair', 'ventolin']::text[]),
  (ARRAY['fluticasone', 'salmeterol']::text[], ARRAY['advair']::text[]),
  (ARRAY['meloxicam']::text[], ARRAY['mobic']::text[]),
  (ARRAY['celecoxib']::text[], ARRAY['celebrex']::text[]),
  (ARRAY['sildenafil']::text[], ARRAY['viagra']::text[]),
  (ARRAY['tadalafil']::text[], ARRAY['cialis']::text[]),
  (ARRAY['tamsulosin']::text[], ARRAY['flomax']::text[]),
  (ARRAY['finasteride']::text[], ARRAY['proscar']::text[]),
  (ARRAY['empagliflozin']::text[], ARRAY['jardiance']::text[]),
  (ARRAY['dapagliflozin']::text[], ARRAY['farxiga']::text[]),
  (ARRAY['semaglutide']::text[], ARRAY['ozempic']::text[]),
  (ARRAY['sitagliptin']::text[], ARRAY['januvia']::text[]),
  (ARRAY['ondansetron']::text[], ARRAY['zofran']::text[]),
  (ARRAY['valacyclovir']::text[], ARRAY['valtrex']::text[]),
  (ARRAY['venlafaxine']::text[], ARRAY['effexor']::text[]),
  (ARRAY['hydrocodone', 'acetaminophen']::text[], ARRAY['norco']::text[]),
  (ARRAY['oxycodone', 'acetaminophen']::text[], ARRAY['percocet']::text[]),
  (ARRAY['methylphenidate']::text[], ARRAY['ritalin']::text[]),
  (ARRAY['amphetamine', 'dextroamphetamine']::text[], ARRAY['adderall']::text[]),
  (ARRAY['lisdexamfetamine']::text[], ARRAY['vyvanse']::text[]),
  (ARRAY['prednisone']::text[], ARRAY['deltasone']::text[]),
  (ARRAY['trazodone']::text[], ARRAY['desyrel']::text[])
) AS b(ingredients, names)
WHERE f."source" = 'starter' AND f."ingredients" = b.ingredients;
