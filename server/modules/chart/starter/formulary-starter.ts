/**
 * Starter formulary: the products a US outpatient primary-care practice prescribes most often, a
 * starting set a site can offer its prescribers and then extend or replace. Vaccines are not included.
 *
 * Codes are identifiers only. RxNorm concept ids (RXCUI) are assigned by the US National Library of
 * Medicine; RxNorm's own concepts are in the public domain. ATC codes are the WHO Collaborating
 * Centre for Drug Statistics Methodology's Anatomical Therapeutic Chemical classification. An RXCUI
 * is given only where the clinical drug (SCD) concept is certain, and is null otherwise: a missing
 * code is better than a wrong one. Products whose label form has no exact counterpart in TDoseForm
 * (delayed-release capsules and tablets, powders to dissolve, auto-injectors) use the nearest form,
 * and their RXCUI names the exact clinical drug.
 */

export type TRoute =
  | 'oral'
  | 'sublingual'
  | 'topical'
  | 'transdermal'
  | 'inhalation'
  | 'nasal'
  | 'ophthalmic'
  | 'otic'
  | 'rectal'
  | 'vaginal'
  | 'subcutaneous'
  | 'intramuscular'
  | 'intravenous';

export type TDoseForm =
  | 'tablet'
  | 'tablet, extended release'
  | 'capsule'
  | 'capsule, extended release'
  | 'oral solution'
  | 'oral suspension'
  | 'chewable tablet'
  | 'orally disintegrating tablet'
  | 'inhaler'
  | 'nebulizer solution'
  | 'nasal spray'
  | 'cream'
  | 'ointment'
  | 'gel'
  | 'lotion'
  | 'patch'
  | 'eye drops'
  | 'ear drops'
  | 'suppository'
  | 'injection'
  | 'pen injector'
  | 'powder for injection';

/**
 * One product of the starter formulary: what a prescriber picks. `ingredients` are lower-case
 * INN/USAN names (one for a single-ingredient product, several for a combination), `strength`
 * as written on the label ("500 mg", "5 mg/5 mL", "90 mcg/actuation", "0.1%"), `rxcui` the
 * RxNorm concept of the clinical drug (SCD) when you are certain of it, else null, and `atc`
 * the WHO ATC code of the (main) ingredient.
 */
export interface TStarterMedication {
  ingredients: readonly string[];
  strength: string;
  doseForm: TDoseForm;
  route: TRoute;
  rxcui: string | null;
  atc: string;
  /** For a controlled substance: its US DEA schedule. */
  schedule?: 'II' | 'III' | 'IV' | 'V';
}

type TSchedule = NonNullable<TStarterMedication['schedule']>;

/** Builds one product, so that each stays on one line: ingredients, label strength, form, route, SCD RXCUI or null, ATC code, DEA schedule. */
function med(
  ingredients: readonly string[],
  strength: string,
  doseForm: TDoseForm,
  route: TRoute,
  rxcui: string | null,
  atc: string,
  schedule?: TSchedule,
): TStarterMedication {
  return schedule === undefined ? { ingredients, strength, doseForm, route, rxcui, atc } : { ingredients, strength, doseForm, route, rxcui, atc, schedule };
}

export const FORMULARY_STARTER: readonly TStarterMedication[] = [
  // Cardiovascular: ACE inhibitors
  med(['lisinopril'], '5 mg', 'tablet', 'oral', '311354', 'C09AA03'),
  med(['lisinopril'], '10 mg', 'tablet', 'oral', '314076', 'C09AA03'),
  med(['lisinopril'], '20 mg', 'tablet', 'oral', '314077', 'C09AA03'),
  med(['lisinopril'], '40 mg', 'tablet', 'oral', '197884', 'C09AA03'),
  med(['lisinopril', 'hydrochlorothiazide'], '20 mg/12.5 mg', 'tablet', 'oral', '197886', 'C09BA03'),
  med(['enalapril'], '10 mg', 'tablet', 'oral', '858817', 'C09AA02'),
  med(['benazepril'], '20 mg', 'tablet', 'oral', '898690', 'C09AA07'),
  med(['ramipril'], '10 mg', 'capsule', 'oral', '261962', 'C09AA05'),

  // Cardiovascular: angiotensin receptor blockers and ARNI
  med(['losartan'], '25 mg', 'tablet', 'oral', '979485', 'C09CA01'),
  med(['losartan'], '50 mg', 'tablet', 'oral', '979492', 'C09CA01'),
  med(['losartan'], '100 mg', 'tablet', 'oral', '979480', 'C09CA01'),
  med(['losartan', 'hydrochlorothiazide'], '50 mg/12.5 mg', 'tablet', 'oral', '979468', 'C09DA01'),
  med(['valsartan'], '80 mg', 'tablet', 'oral', '349199', 'C09CA03'),
  med(['valsartan'], '160 mg', 'tablet', 'oral', '349201', 'C09CA03'),
  med(['olmesartan'], '20 mg', 'tablet', 'oral', '349401', 'C09CA08'),
  med(['sacubitril', 'valsartan'], '49 mg/51 mg', 'tablet', 'oral', '1656349', 'C09DX04'),

  // Cardiovascular: calcium channel blockers
  med(['amlodipine'], '2.5 mg', 'tablet', 'oral', '308136', 'C08CA01'),
  med(['amlodipine'], '5 mg', 'tablet', 'oral', '197361', 'C08CA01'),
  med(['amlodipine'], '10 mg', 'tablet', 'oral', '308135', 'C08CA01'),
  med(['nifedipine'], '30 mg', 'tablet, extended release', 'oral', '198034', 'C08CA05'),

  // Cardiovascular: diuretics
  med(['hydrochlorothiazide'], '12.5 mg', 'capsule', 'oral', '199903', 'C03AA03'),
  med(['hydrochlorothiazide'], '25 mg', 'tablet', 'oral', '310798', 'C03AA03'),
  med(['chlorthalidone'], '25 mg', 'tablet', 'oral', '197499', 'C03BA04'),
  med(['furosemide'], '20 mg', 'tablet', 'oral', '310429', 'C03CA01'),
  med(['furosemide'], '40 mg', 'tablet', 'oral', '313988', 'C03CA01'),
  med(['bumetanide'], '1 mg', 'tablet', 'oral', '197418', 'C03CA02'),
  med(['spironolactone'], '25 mg', 'tablet', 'oral', '313096', 'C03DA01'),
  med(['spironolactone'], '50 mg', 'tablet', 'oral', '198223', 'C03DA01'),
  med(['triamterene', 'hydrochlorothiazide'], '37.5 mg/25 mg', 'tablet', 'oral', '310812', 'C03EA01'),

  // Cardiovascular: beta blockers
  med(['metoprolol'], '25 mg', 'tablet', 'oral', '866924', 'C07AB02'), // tartrate
  med(['metoprolol'], '50 mg', 'tablet', 'oral', '866514', 'C07AB02'), // tartrate
  med(['metoprolol'], '25 mg', 'tablet, extended release', 'oral', '866427', 'C07AB02'), // succinate
  med(['metoprolol'], '50 mg', 'tablet, extended release', 'oral', '866436', 'C07AB02'), // succinate
  med(['metoprolol'], '100 mg', 'tablet, extended release', 'oral', '866412', 'C07AB02'), // succinate
  med(['carvedilol'], '6.25 mg', 'tablet', 'oral', '200031', 'C07AG02'),
  med(['carvedilol'], '12.5 mg', 'tablet', 'oral', '200032', 'C07AG02'),
  med(['carvedilol'], '25 mg', 'tablet', 'oral', '200033', 'C07AG02'),
  med(['atenolol'], '50 mg', 'tablet', 'oral', '197381', 'C07AB03'),

  // Cardiovascular: other
  med(['clonidine'], '0.1 mg', 'tablet', 'oral', '884173', 'C02AC01'),
  med(['isosorbide mononitrate'], '30 mg', 'tablet, extended release', 'oral', '317110', 'C01DA14'),
  med(['nitroglycerin'], '0.4 mg', 'tablet', 'sublingual', '198039', 'C01DA02'),

  // Lipid-lowering agents
  med(['atorvastatin'], '10 mg', 'tablet', 'oral', '617312', 'C10AA05'),
  med(['atorvastatin'], '20 mg', 'tablet', 'oral', '617310', 'C10AA05'),
  med(['atorvastatin'], '40 mg', 'tablet', 'oral', '617311', 'C10AA05'),
  med(['atorvastatin'], '80 mg', 'tablet', 'oral', '259255', 'C10AA05'),
  med(['rosuvastatin'], '5 mg', 'tablet', 'oral', '859424', 'C10AA07'),
  med(['rosuvastatin'], '10 mg', 'tablet', 'oral', '859747', 'C10AA07'),
  med(['rosuvastatin'], '20 mg', 'tablet', 'oral', '859751', 'C10AA07'),
  med(['simvastatin'], '20 mg', 'tablet', 'oral', '312961', 'C10AA01'),
  med(['simvastatin'], '40 mg', 'tablet', 'oral', '198211', 'C10AA01'),
  med(['pravastatin'], '40 mg', 'tablet', 'oral', '904475', 'C10AA03'),
  med(['ezetimibe'], '10 mg', 'tablet', 'oral', '349556', 'C10AX09'),
  med(['fenofibrate'], '145 mg', 'tablet', 'oral', '477560', 'C10AB05'),

  // Diabetes
  med(['metformin'], '500 mg', 'tablet', 'oral', '861007', 'A10BA02'),
  med(['metformin'], '850 mg', 'tablet', 'oral', '861010', 'A10BA02'),
  med(['metformin'], '1000 mg', 'tablet', 'oral', '861004', 'A10BA02'),
  med(['metformin'], '500 mg', 'tablet, extended release', 'oral', '860975', 'A10BA02'),
  med(['metformin'], '750 mg', 'tablet, extended release', 'oral', '860981', 'A10BA02'),
  med(['glipizide'], '5 mg', 'tablet', 'oral', '310490', 'A10BB07'),
  med(['glipizide'], '10 mg', 'tablet', 'oral', '310488', 'A10BB07'),
  med(['glimepiride'], '2 mg', 'tablet', 'oral', '199246', 'A10BB12'),
  med(['glimepiride'], '4 mg', 'tablet', 'oral', '199247', 'A10BB12'),
  med(['sitagliptin'], '100 mg', 'tablet', 'oral', '665033', 'A10BH01'),
  med(['empagliflozin'], '10 mg', 'tablet', 'oral', '1545658', 'A10BK03'),
  med(['empagliflozin'], '25 mg', 'tablet', 'oral', '1545666', 'A10BK03'),
  med(['dapagliflozin'], '5 mg', 'tablet', 'oral', '1488574', 'A10BK01'),
  med(['dapagliflozin'], '10 mg', 'tablet', 'oral', '1488569', 'A10BK01'),
  med(['pioglitazone'], '15 mg', 'tablet', 'oral', '317573', 'A10BG03'),
  med(['pioglitazone'], '30 mg', 'tablet', 'oral', '312440', 'A10BG03'),
  med(['insulin glargine'], '100 units/mL', 'pen injector', 'subcutaneous', '847230', 'A10AE04'),
  med(['insulin lispro'], '100 units/mL', 'pen injector', 'subcutaneous', '1652639', 'A10AB04'),
  med(['insulin aspart'], '100 units/mL', 'pen injector', 'subcutaneous', '1653202', 'A10AB05'),
  med(['semaglutide'], '2 mg/3 mL', 'pen injector', 'subcutaneous', '2619152', 'A10BJ06'), // pen delivering 0.25 mg or 0.5 mg doses
  med(['semaglutide'], '4 mg/3 mL', 'pen injector', 'subcutaneous', '2398841', 'A10BJ06'), // pen delivering 1 mg doses
  med(['dulaglutide'], '1.5 mg/0.5 mL', 'pen injector', 'subcutaneous', '1551304', 'A10BJ05'), // single-dose pen

  // Anticoagulants and antiplatelets
  med(['warfarin'], '1 mg', 'tablet', 'oral', '855288', 'B01AA03'),
  med(['warfarin'], '2 mg', 'tablet', 'oral', '855302', 'B01AA03'),
  med(['warfarin'], '2.5 mg', 'tablet', 'oral', '855312', 'B01AA03'),
  med(['warfarin'], '5 mg', 'tablet', 'oral', '855332', 'B01AA03'),
  med(['apixaban'], '2.5 mg', 'tablet', 'oral', '1364435', 'B01AF02'),
  med(['apixaban'], '5 mg', 'tablet', 'oral', '1364445', 'B01AF02'),
  med(['rivaroxaban'], '10 mg', 'tablet', 'oral', '1114198', 'B01AF01'),
  med(['rivaroxaban'], '20 mg', 'tablet', 'oral', '1232086', 'B01AF01'),
  med(['clopidogrel'], '75 mg', 'tablet', 'oral', '309362', 'B01AC04'),
  med(['ticagrelor'], '90 mg', 'tablet', 'oral', '1116635', 'B01AC24'),
  med(['aspirin'], '81 mg', 'chewable tablet', 'oral', '318272', 'B01AC06'),
  med(['aspirin'], '81 mg', 'tablet', 'oral', '308416', 'B01AC06'), // enteric-coated (delayed release)
  med(['aspirin'], '325 mg', 'tablet', 'oral', '212033', 'N02BA01'),
  med(['enoxaparin'], '40 mg/0.4 mL', 'injection', 'subcutaneous', '854235', 'B01AB05'), // prefilled syringe

  // Antibiotics: penicillins
  med(['amoxicillin'], '250 mg', 'capsule', 'oral', '308182', 'J01CA04'),
  med(['amoxicillin'], '500 mg', 'capsule', 'oral', '308191', 'J01CA04'),
  med(['amoxicillin'], '875 mg', 'tablet', 'oral', '308194', 'J01CA04'),
  med(['amoxicillin'], '250 mg/5 mL', 'oral suspension', 'oral', '239191', 'J01CA04'),
  med(['amoxicillin'], '400 mg/5 mL', 'oral suspension', 'oral', '308189', 'J01CA04'),
  med(['amoxicillin', 'clavulanate'], '500 mg/125 mg', 'tablet', 'oral', '617296', 'J01CR02'),
  med(['amoxicillin', 'clavulanate'], '875 mg/125 mg', 'tablet', 'oral', '562508', 'J01CR02'),
  med(['amoxicillin', 'clavulanate'], '400 mg/57 mg per 5 mL', 'oral suspension', 'oral', '617430', 'J01CR02'),
  med(['penicillin v'], '250 mg', 'tablet', 'oral', '834061', 'J01CE02'),
  med(['penicillin v'], '500 mg', 'tablet', 'oral', '834102', 'J01CE02'),

  // Antibiotics: cephalosporins
  med(['cephalexin'], '250 mg', 'capsule', 'oral', '309112', 'J01DB01'),
  med(['cephalexin'], '500 mg', 'capsule', 'oral', '309114', 'J01DB01'),
  med(['cefdinir'], '300 mg', 'capsule', 'oral', '200346', 'J01DD15'),
  med(['cefdinir'], '250 mg/5 mL', 'oral suspension', 'oral', '476576', 'J01DD15'),
  med(['cefuroxime'], '500 mg', 'tablet', 'oral', '309098', 'J01DC02'),
  med(['ceftriaxone'], '500 mg', 'powder for injection', 'intramuscular', '1665005', 'J01DD04'), // given in clinic

  // Antibiotics: macrolides, tetracyclines, quinolones and others
  med(['azithromycin'], '250 mg', 'tablet', 'oral', '308460', 'J01FA10'),
  med(['azithromycin'], '500 mg', 'tablet', 'oral', '248656', 'J01FA10'),
  med(['azithromycin'], '200 mg/5 mL', 'oral suspension', 'oral', '141963', 'J01FA10'),
  med(['clarithromycin'], '500 mg', 'tablet', 'oral', '197517', 'J01FA09'),
  med(['doxycycline'], '100 mg', 'capsule', 'oral', '1649988', 'J01AA02'),
  med(['minocycline'], '100 mg', 'capsule', 'oral', '197984', 'J01AA08'),
  med(['ciprofloxacin'], '500 mg', 'tablet', 'oral', '309309', 'J01MA02'),
  med(['levofloxacin'], '500 mg', 'tablet', 'oral', '199885', 'J01MA12'),
  med(['levofloxacin'], '750 mg', 'tablet', 'oral', '311296', 'J01MA12'),
  med(['sulfamethoxazole', 'trimethoprim'], '800 mg/160 mg', 'tablet', 'oral', '198335', 'J01EE01'),
  med(['sulfamethoxazole', 'trimethoprim'], '200 mg/40 mg per 5 mL', 'oral suspension', 'oral', '313134', 'J01EE01'),
  med(['nitrofurantoin'], '100 mg', 'capsule', 'oral', '1648755', 'J01XE01'), // monohydrate/macrocrystals
  med(['metronidazole'], '500 mg', 'tablet', 'oral', '311681', 'P01AB01'),
  med(['clindamycin'], '300 mg', 'capsule', 'oral', '284215', 'J01FF01'),

  // Antivirals and antifungals
  med(['valacyclovir'], '500 mg', 'tablet', 'oral', '313565', 'J05AB11'),
  med(['valacyclovir'], '1 g', 'tablet', 'oral', '313564', 'J05AB11'),
  med(['acyclovir'], '400 mg', 'tablet', 'oral', null, 'J05AB01'),
  med(['acyclovir'], '800 mg', 'tablet', 'oral', null, 'J05AB01'),
  med(['oseltamivir'], '75 mg', 'capsule', 'oral', '312122', 'J05AH02'),
  med(['oseltamivir'], '6 mg/mL', 'oral suspension', 'oral', '1115698', 'J05AH02'),
  med(['fluconazole'], '150 mg', 'tablet', 'oral', '197699', 'J02AC01'),
  med(['nystatin'], '100,000 units/mL', 'oral suspension', 'oral', '312055', 'A07AA02'),
  med(['nystatin'], '100,000 units/g', 'cream', 'topical', '543546', 'D01AA01'),
  med(['terbinafine'], '250 mg', 'tablet', 'oral', '313222', 'D01BA02'),

  // Analgesics and anti-inflammatories
  med(['acetaminophen'], '325 mg', 'tablet', 'oral', null, 'N02BE01'),
  med(['acetaminophen'], '500 mg', 'tablet', 'oral', null, 'N02BE01'),
  med(['acetaminophen'], '160 mg/5 mL', 'oral suspension', 'oral', null, 'N02BE01'),
  med(['ibuprofen'], '400 mg', 'tablet', 'oral', '197805', 'M01AE01'),
  med(['ibuprofen'], '600 mg', 'tablet', 'oral', '197806', 'M01AE01'),
  med(['ibuprofen'], '800 mg', 'tablet', 'oral', '197807', 'M01AE01'),
  med(['ibuprofen'], '100 mg/5 mL', 'oral suspension', 'oral', '197803', 'M01AE01'),
  med(['naproxen'], '500 mg', 'tablet', 'oral', '198014', 'M01AE02'),
  med(['meloxicam'], '7.5 mg', 'tablet', 'oral', '311486', 'M01AC06'),
  med(['meloxicam'], '15 mg', 'tablet', 'oral', '152695', 'M01AC06'),
  med(['diclofenac'], '1%', 'gel', 'topical', '855633', 'M02AA15'),
  med(['diclofenac'], '75 mg', 'tablet', 'oral', '855926', 'M01AB05'), // delayed release
  med(['celecoxib'], '200 mg', 'capsule', 'oral', '205323', 'M01AH01'),
  med(['cyclobenzaprine'], '10 mg', 'tablet', 'oral', '828348', 'M03BX08'),
  med(['baclofen'], '10 mg', 'tablet', 'oral', '197391', 'M03BX01'),

  // Analgesics: controlled substances
  med(['tramadol'], '50 mg', 'tablet', 'oral', '835603', 'N02AX02', 'IV'),
  med(['oxycodone'], '5 mg', 'tablet', 'oral', '1049621', 'N02AA05', 'II'),
  med(['oxycodone', 'acetaminophen'], '5 mg/325 mg', 'tablet', 'oral', '1049221', 'N02AJ17', 'II'),
  med(['hydrocodone', 'acetaminophen'], '5 mg/325 mg', 'tablet', 'oral', '857002', 'N02AJ22', 'II'),
  med(['hydrocodone', 'acetaminophen'], '10 mg/325 mg', 'tablet', 'oral', '856999', 'N02AJ22', 'II'),
  med(['codeine', 'acetaminophen'], '30 mg/300 mg', 'tablet', 'oral', '993781', 'N02AJ06', 'III'),
  med(['morphine'], '15 mg', 'tablet, extended release', 'oral', '891881', 'N02AA01', 'II'),
  med(['naloxone'], '4 mg/0.1 mL', 'nasal spray', 'nasal', '1725059', 'V03AB15'),

  // Gastrointestinal
  med(['omeprazole'], '20 mg', 'capsule', 'oral', '198051', 'A02BC01'), // delayed release
  med(['omeprazole'], '40 mg', 'capsule', 'oral', '200329', 'A02BC01'), // delayed release
  med(['pantoprazole'], '40 mg', 'tablet', 'oral', '314200', 'A02BC02'), // delayed release
  med(['famotidine'], '20 mg', 'tablet', 'oral', '310273', 'A02BA03'),
  med(['ondansetron'], '4 mg', 'orally disintegrating tablet', 'oral', '104894', 'A04AA01'),
  med(['ondansetron'], '8 mg', 'orally disintegrating tablet', 'oral', '312087', 'A04AA01'),
  med(['docusate'], '100 mg', 'capsule', 'oral', '1115005', 'A06AA02'),
  med(['sennosides'], '8.6 mg', 'tablet', 'oral', '312935', 'A06AB06'),
  med(['polyethylene glycol 3350'], '17 g/dose', 'oral solution', 'oral', '876193', 'A06AD15'), // powder dissolved in liquid before use
  med(['loperamide'], '2 mg', 'capsule', 'oral', '978006', 'A07DA03'),
  med(['dicyclomine'], '10 mg', 'capsule', 'oral', '991061', 'A03AA07'),
  med(['dicyclomine'], '20 mg', 'tablet', 'oral', '991086', 'A03AA07'),
  med(['metoclopramide'], '10 mg', 'tablet', 'oral', '311666', 'A03FA01'),
  med(['promethazine'], '25 mg', 'tablet', 'oral', '992447', 'R06AD02'),

  // Respiratory: inhalers and nebulizer solutions
  med(['albuterol'], '90 mcg/actuation', 'inhaler', 'inhalation', null, 'R03AC02'),
  med(['albuterol'], '2.5 mg/3 mL', 'nebulizer solution', 'inhalation', null, 'R03AC02'),
  med(['ipratropium', 'albuterol'], '0.5 mg/2.5 mg per 3 mL', 'nebulizer solution', 'inhalation', '1437702', 'R03AL02'),
  med(['fluticasone'], '110 mcg/actuation', 'inhaler', 'inhalation', '895999', 'R03BA05'),
  med(['fluticasone', 'salmeterol'], '100 mcg/50 mcg per inhalation', 'inhaler', 'inhalation', '896161', 'R03AK06'),
  med(['fluticasone', 'salmeterol'], '250 mcg/50 mcg per inhalation', 'inhaler', 'inhalation', '896186', 'R03AK06'),
  med(['budesonide', 'formoterol'], '80 mcg/4.5 mcg per actuation', 'inhaler', 'inhalation', '1246288', 'R03AK07'),
  med(['budesonide', 'formoterol'], '160 mcg/4.5 mcg per actuation', 'inhaler', 'inhalation', '1246304', 'R03AK07'),
  med(['tiotropium'], '18 mcg/capsule', 'inhaler', 'inhalation', '485032', 'R03BB04'), // capsules for a dry-powder inhaler device
  med(['tiotropium'], '2.5 mcg/actuation', 'inhaler', 'inhalation', '1552002', 'R03BB04'), // soft-mist inhaler

  // Respiratory: allergy, cough and leukotriene modifiers
  med(['fluticasone'], '50 mcg/actuation', 'nasal spray', 'nasal', '1797907', 'R01AD08'),
  med(['montelukast'], '10 mg', 'tablet', 'oral', '200224', 'R03DC03'),
  med(['montelukast'], '4 mg', 'chewable tablet', 'oral', '311759', 'R03DC03'),
  med(['montelukast'], '5 mg', 'chewable tablet', 'oral', '242438', 'R03DC03'),
  med(['cetirizine'], '10 mg', 'tablet', 'oral', '1014678', 'R06AE07'),
  med(['loratadine'], '10 mg', 'tablet', 'oral', '311372', 'R06AX13'),
  med(['fexofenadine'], '180 mg', 'tablet', 'oral', '997420', 'R06AX26'),
  med(['benzonatate'], '100 mg', 'capsule', 'oral', '197397', 'R05DB01'),

  // Systemic corticosteroids
  med(['prednisone'], '5 mg', 'tablet', 'oral', '312617', 'H02AB07'),
  med(['prednisone'], '10 mg', 'tablet', 'oral', '198145', 'H02AB07'),
  med(['prednisone'], '20 mg', 'tablet', 'oral', '312615', 'H02AB07'),
  med(['methylprednisolone'], '4 mg', 'tablet', 'oral', '259966', 'H02AB04'), // also dispensed as a 21-tablet dose pack

  // Mental health: antidepressants
  med(['sertraline'], '25 mg', 'tablet', 'oral', '312940', 'N06AB06'),
  med(['sertraline'], '50 mg', 'tablet', 'oral', '312941', 'N06AB06'),
  med(['sertraline'], '100 mg', 'tablet', 'oral', '312938', 'N06AB06'),
  med(['escitalopram'], '10 mg', 'tablet', 'oral', '349332', 'N06AB10'),
  med(['escitalopram'], '20 mg', 'tablet', 'oral', '351250', 'N06AB10'),
  med(['citalopram'], '20 mg', 'tablet', 'oral', '200371', 'N06AB04'),
  med(['fluoxetine'], '20 mg', 'capsule', 'oral', '310385', 'N06AB03'),
  med(['fluoxetine'], '40 mg', 'capsule', 'oral', '313989', 'N06AB03'),
  med(['paroxetine'], '20 mg', 'tablet', 'oral', '1738495', 'N06AB05'),
  med(['bupropion'], '150 mg', 'tablet, extended release', 'oral', '993541', 'N06AX12'), // XL (24 hour)
  med(['bupropion'], '300 mg', 'tablet, extended release', 'oral', '993557', 'N06AX12'), // XL (24 hour)
  med(['venlafaxine'], '75 mg', 'capsule, extended release', 'oral', '313585', 'N06AX16'),
  med(['venlafaxine'], '150 mg', 'capsule, extended release', 'oral', '313581', 'N06AX16'),
  med(['duloxetine'], '30 mg', 'capsule', 'oral', '596930', 'N06AX21'), // delayed release
  med(['duloxetine'], '60 mg', 'capsule', 'oral', '596934', 'N06AX21'), // delayed release
  med(['mirtazapine'], '15 mg', 'tablet', 'oral', '311725', 'N06AX11'),
  med(['mirtazapine'], '30 mg', 'tablet', 'oral', '314111', 'N06AX11'),
  med(['trazodone'], '50 mg', 'tablet', 'oral', '856377', 'N06AX05'),
  med(['trazodone'], '100 mg', 'tablet', 'oral', '856373', 'N06AX05'),
  med(['amitriptyline'], '10 mg', 'tablet', 'oral', '856783', 'N06AA09'),
  med(['amitriptyline'], '25 mg', 'tablet', 'oral', '856834', 'N06AA09'),

  // Mental health: anxiolytics and hypnotics
  med(['buspirone'], '10 mg', 'tablet', 'oral', '866083', 'N05BE01'),
  med(['buspirone'], '15 mg', 'tablet', 'oral', '866018', 'N05BE01'),
  med(['hydroxyzine'], '25 mg', 'tablet', 'oral', '995258', 'N05BB01'),
  med(['alprazolam'], '0.5 mg', 'tablet', 'oral', '308048', 'N05BA12', 'IV'),
  med(['lorazepam'], '0.5 mg', 'tablet', 'oral', '197900', 'N05BA06', 'IV'),
  med(['clonazepam'], '0.5 mg', 'tablet', 'oral', '197527', 'N03AE01', 'IV'),
  med(['zolpidem'], '5 mg', 'tablet', 'oral', '854876', 'N05CF02', 'IV'),
  med(['zolpidem'], '10 mg', 'tablet', 'oral', '854873', 'N05CF02', 'IV'),

  // Mental health: antipsychotics and mood stabilizers
  med(['quetiapine'], '25 mg', 'tablet', 'oral', '312744', 'N05AH04'),
  med(['quetiapine'], '50 mg', 'tablet', 'oral', '616487', 'N05AH04'),
  med(['aripiprazole'], '5 mg', 'tablet', 'oral', '402131', 'N05AX12'),
  med(['aripiprazole'], '10 mg', 'tablet', 'oral', '349545', 'N05AX12'),
  med(['lithium carbonate'], '300 mg', 'capsule', 'oral', '197889', 'N05AN01'),
  med(['lamotrigine'], '25 mg', 'tablet', 'oral', '282401', 'N03AX09'),
  med(['lamotrigine'], '100 mg', 'tablet', 'oral', '198427', 'N03AX09'),

  // Mental health: ADHD, addiction and smoking cessation
  med(['methylphenidate'], '10 mg', 'tablet', 'oral', '1091150', 'N06BA04', 'II'),
  med(['methylphenidate'], '36 mg', 'tablet, extended release', 'oral', '1091185', 'N06BA04', 'II'),
  med(['amphetamine', 'dextroamphetamine'], '10 mg', 'tablet', 'oral', '541892', 'N06BA01', 'II'), // mixed amphetamine salts
  med(['amphetamine', 'dextroamphetamine'], '20 mg', 'tablet', 'oral', '577961', 'N06BA01', 'II'), // mixed amphetamine salts
  med(['amphetamine', 'dextroamphetamine'], '20 mg', 'capsule, extended release', 'oral', '861225', 'N06BA01', 'II'), // mixed amphetamine salts
  med(['lisdexamfetamine'], '30 mg', 'capsule', 'oral', '854834', 'N06BA12', 'II'),
  med(['naltrexone'], '50 mg', 'tablet', 'oral', '1483744', 'N07BB04'),
  med(['buprenorphine', 'naloxone'], '8 mg/2 mg', 'tablet', 'sublingual', '351267', 'N07BC51', 'III'),
  med(['varenicline'], '1 mg', 'tablet', 'oral', '636676', 'N07BA03'),
  med(['nicotine'], '21 mg/24 hours', 'patch', 'transdermal', '198030', 'N07BA01'),
  med(['nicotine'], '14 mg/24 hours', 'patch', 'transdermal', '198029', 'N07BA01'),

  // Neurology
  med(['gabapentin'], '100 mg', 'capsule', 'oral', '310430', 'N02BF01'),
  med(['gabapentin'], '300 mg', 'capsule', 'oral', '310431', 'N02BF01'),
  med(['gabapentin'], '400 mg', 'capsule', 'oral', '310432', 'N02BF01'),
  med(['pregabalin'], '50 mg', 'capsule', 'oral', '483448', 'N02BF02', 'V'),
  med(['pregabalin'], '75 mg', 'capsule', 'oral', '483450', 'N02BF02', 'V'),
  med(['topiramate'], '25 mg', 'tablet', 'oral', '199888', 'N03AX11'),
  med(['sumatriptan'], '50 mg', 'tablet', 'oral', '313161', 'N02CC01'),
  med(['sumatriptan'], '100 mg', 'tablet', 'oral', '313160', 'N02CC01'),
  med(['rizatriptan'], '10 mg', 'orally disintegrating tablet', 'oral', '312837', 'N02CC04'),
  med(['levetiracetam'], '500 mg', 'tablet', 'oral', '311289', 'N03AX14'),
  med(['carbamazepine'], '200 mg', 'tablet', 'oral', '308979', 'N03AF01'),
  med(['phenytoin'], '100 mg', 'capsule, extended release', 'oral', '855671', 'N03AB02'),
  med(['donepezil'], '5 mg', 'tablet', 'oral', '997229', 'N06DA02'),
  med(['donepezil'], '10 mg', 'tablet', 'oral', '997223', 'N06DA02'),

  // Endocrine: thyroid
  med(['levothyroxine'], '25 mcg', 'tablet', 'oral', '966220', 'H03AA01'),
  med(['levothyroxine'], '50 mcg', 'tablet', 'oral', '966221', 'H03AA01'),
  med(['levothyroxine'], '75 mcg', 'tablet', 'oral', '966222', 'H03AA01'),
  med(['levothyroxine'], '88 mcg', 'tablet', 'oral', '966253', 'H03AA01'),
  med(['levothyroxine'], '100 mcg', 'tablet', 'oral', '892246', 'H03AA01'),
  med(['levothyroxine'], '112 mcg', 'tablet', 'oral', '966248', 'H03AA01'),
  med(['levothyroxine'], '125 mcg', 'tablet', 'oral', '966224', 'H03AA01'),
  med(['levothyroxine'], '150 mcg', 'tablet', 'oral', '966225', 'H03AA01'),
  med(['methimazole'], '5 mg', 'tablet', 'oral', '197942', 'H03BB02'),
  med(['methimazole'], '10 mg', 'tablet', 'oral', '197941', 'H03BB02'),

  // Urology
  med(['tamsulosin'], '0.4 mg', 'capsule', 'oral', '863669', 'G04CA02'),
  med(['finasteride'], '5 mg', 'tablet', 'oral', '310346', 'G04CB01'),
  med(['oxybutynin'], '5 mg', 'tablet', 'oral', '863664', 'G04BD04'),
  med(['oxybutynin'], '10 mg', 'tablet, extended release', 'oral', '863619', 'G04BD04'),
  med(['sildenafil'], '20 mg', 'tablet', 'oral', '577033', 'G04BE03'),
  med(['sildenafil'], '100 mg', 'tablet', 'oral', '314229', 'G04BE03'),
  med(['tadalafil'], '5 mg', 'tablet', 'oral', '403957', 'G04BE08'),

  // Bone and gout
  med(['alendronate'], '70 mg', 'tablet', 'oral', null, 'M05BA04'),
  med(['allopurinol'], '100 mg', 'tablet', 'oral', null, 'M04AA01'),
  med(['allopurinol'], '300 mg', 'tablet', 'oral', null, 'M04AA01'),
  med(['colchicine'], '0.6 mg', 'tablet', 'oral', '197541', 'M04AC01'),

  // Vitamins and minerals
  med(['cholecalciferol'], '1000 units', 'tablet', 'oral', '199362', 'A11CC05'), // 25 mcg
  med(['cholecalciferol'], '2000 units', 'tablet', 'oral', '801663', 'A11CC05'), // 50 mcg
  med(['ergocalciferol'], '50,000 units', 'capsule', 'oral', '1367410', 'A11CC01'), // 1.25 mg
  med(['cyanocobalamin'], '1000 mcg', 'tablet', 'oral', '309593', 'B03BA01'),
  med(['cyanocobalamin'], '1000 mcg/mL', 'injection', 'intramuscular', '309594', 'B03BA01'),
  med(['ferrous sulfate'], '325 mg', 'tablet', 'oral', '310325', 'B03AA07'),
  med(['folic acid'], '1 mg', 'tablet', 'oral', '310410', 'B03BB01'),
  med(['potassium chloride'], '10 mEq', 'tablet, extended release', 'oral', '628953', 'A12BA01'),
  med(['potassium chloride'], '20 mEq', 'tablet, extended release', 'oral', '198116', 'A12BA01'),

  // Women's health and contraception
  med(['medroxyprogesterone'], '150 mg/mL', 'injection', 'intramuscular', '1000126', 'G03AC06'),
  med(['medroxyprogesterone'], '10 mg', 'tablet', 'oral', '1000114', 'G03DA02'),
  med(['norethindrone'], '0.35 mg', 'tablet', 'oral', '198042', 'G03AC01'),
  med(['estradiol'], '1 mg', 'tablet', 'oral', '197658', 'G03CA03'),
  med(['ethinyl estradiol', 'norgestimate'], '0.035 mg/0.25 mg', 'tablet', 'oral', '240128', 'G03AA11'),
  med(['ethinyl estradiol', 'levonorgestrel'], '0.03 mg/0.15 mg', 'tablet', 'oral', '238019', 'G03AA07'),
  med(['levonorgestrel'], '1.5 mg', 'tablet', 'oral', '483325', 'G03AD01'),
  med(['metronidazole'], '0.75%', 'gel', 'vaginal', '142046', 'G01AF01'),

  // Dermatology
  med(['hydrocortisone'], '1%', 'cream', 'topical', '106258', 'D07AA02'),
  med(['hydrocortisone'], '2.5%', 'cream', 'topical', '310891', 'D07AA02'),
  med(['triamcinolone'], '0.1%', 'cream', 'topical', '1014314', 'D07AB09'),
  med(['triamcinolone'], '0.1%', 'ointment', 'topical', '1085636', 'D07AB09'),
  med(['clobetasol'], '0.05%', 'cream', 'topical', '861495', 'D07AD01'),
  med(['mupirocin'], '2%', 'ointment', 'topical', '106346', 'D06AX09'),
  med(['clotrimazole'], '1%', 'cream', 'topical', '309367', 'D01AC01'),
  med(['ketoconazole'], '2%', 'cream', 'topical', '203088', 'D01AC08'),
  med(['clindamycin'], '1%', 'gel', 'topical', null, 'D10AF01'),
  med(['permethrin'], '5%', 'cream', 'topical', '106387', 'P03AC04'),

  // Eye and ear preparations
  med(['ofloxacin'], '0.3%', 'eye drops', 'ophthalmic', '312075', 'S01AE01'),
  med(['ofloxacin'], '0.3%', 'ear drops', 'otic', '242446', 'S02AA16'),
  med(['ciprofloxacin'], '0.3%', 'eye drops', 'ophthalmic', '309307', 'S01AE03'),
  med(['ciprofloxacin'], '0.2%', 'ear drops', 'otic', '848956', 'S02AA15'),
  med(['moxifloxacin'], '0.5%', 'eye drops', 'ophthalmic', '403818', 'S01AE07'),
  med(['erythromycin'], '0.5%', 'ointment', 'ophthalmic', '310149', 'S01AA17'),
  med(['polymyxin b', 'trimethoprim'], '10,000 units/1 mg per mL', 'eye drops', 'ophthalmic', '244967', 'S01AA30'),
  med(['prednisolone'], '1%', 'eye drops', 'ophthalmic', '1376336', 'S01BA04'),
  med(['carboxymethylcellulose'], '0.5%', 'eye drops', 'ophthalmic', '1188426', 'S01XA20'),

  // Other
  med(['epinephrine'], '0.3 mg/0.3 mL', 'injection', 'intramuscular', '1870207', 'C01CA24'), // auto-injector
  med(['epinephrine'], '0.15 mg/0.3 mL', 'injection', 'intramuscular', '727316', 'C01CA24'), // auto-injector
  med(['hydroxychloroquine'], '200 mg', 'tablet', 'oral', '979092', 'P01BA02'),
  med(['triamcinolone'], '40 mg/mL', 'injection', 'intramuscular', '1085754', 'H02AB08'),
  med(['testosterone'], '200 mg/mL', 'injection', 'intramuscular', '835840', 'G03BA03', 'III'),
];

/** The RxNorm ingredient concepts (IN) of the starter's ingredients, where certain: name → RXCUI. */
export const INGREDIENT_RXCUI: Readonly<Record<string, string>> = {
  acetaminophen: '161',
  amlodipine: '17767',
  amoxicillin: '723',
  apixaban: '1364430',
  aspirin: '1191',
  atenolol: '1202',
  atorvastatin: '83367',
  baclofen: '1292',
  benazepril: '18867',
  benzonatate: '18993',
  budesonide: '19831',
  bumetanide: '1808',
  buprenorphine: '1819',
  bupropion: '42347',
  buspirone: '1827',
  carbamazepine: '2002',
  carboxymethylcellulose: '2062',
  carvedilol: '20352',
  cefdinir: '25037',
  ceftriaxone: '2193',
  cefuroxime: '2194',
  celecoxib: '140587',
  cephalexin: '2231',
  cetirizine: '20610',
  chlorthalidone: '2409',
  cholecalciferol: '2418',
  ciprofloxacin: '2551',
  citalopram: '2556',
  clarithromycin: '21212',
  clavulanate: '48203',
  clindamycin: '2582',
  clobetasol: '2590',
  clonazepam: '2598',
  clonidine: '2599',
  clopidogrel: '32968',
  clotrimazole: '2623',
  codeine: '2670',
  colchicine: '2683',
  cyanocobalamin: '11248', // RxNorm name: vitamin B12
  cyclobenzaprine: '21949',
  dapagliflozin: '1488564',
  dextroamphetamine: '3288',
  diclofenac: '3355',
  dicyclomine: '3361',
  docusate: '82003',
  donepezil: '135447',
  doxycycline: '3640',
  dulaglutide: '1551291',
  duloxetine: '72625',
  empagliflozin: '1545653',
  enalapril: '3827',
  enoxaparin: '67108',
  epinephrine: '3992',
  ergocalciferol: '4018',
  erythromycin: '4053',
  escitalopram: '321988',
  estradiol: '4083',
  'ethinyl estradiol': '4124',
  ezetimibe: '341248',
  famotidine: '4278',
  fenofibrate: '8703',
  'ferrous sulfate': '24947',
  fexofenadine: '87636',
  finasteride: '25025',
  fluconazole: '4450',
  fluoxetine: '4493',
  fluticasone: '41126',
  'folic acid': '4511',
  formoterol: '25255',
  furosemide: '4603',
  gabapentin: '25480',
  glimepiride: '25789',
  glipizide: '4821',
  hydrochlorothiazide: '5487',
  hydrocodone: '5489',
  hydrocortisone: '5492',
  hydroxychloroquine: '5521',
  hydroxyzine: '5553',
  ibuprofen: '5640',
  'insulin aspart': '51428', // RxNorm name: insulin aspart, human
  'insulin glargine': '274783',
  'insulin lispro': '86009',
  ipratropium: '7213',
  ketoconazole: '6135',
  lamotrigine: '28439',
  levetiracetam: '114477',
  levofloxacin: '82122',
  levonorgestrel: '6373',
  levothyroxine: '10582',
  lisdexamfetamine: '700810',
  lisinopril: '29046',
  'lithium carbonate': '42351',
  loperamide: '6468',
  loratadine: '28889',
  lorazepam: '6470',
  losartan: '52175',
  medroxyprogesterone: '6691',
  meloxicam: '41493',
  metformin: '6809',
  methimazole: '6835',
  methylphenidate: '6901',
  methylprednisolone: '6902',
  metoclopramide: '6915',
  metoprolol: '6918',
  metronidazole: '6922',
  minocycline: '6980',
  mirtazapine: '15996',
  montelukast: '88249',
  morphine: '7052',
  moxifloxacin: '139462',
  mupirocin: '42372',
  naloxone: '7242',
  naltrexone: '7243',
  naproxen: '7258',
  nicotine: '7407',
  nifedipine: '7417',
  nitrofurantoin: '7454',
  nitroglycerin: '4917',
  norethindrone: '7514',
  norgestimate: '31994',
  nystatin: '7597',
  ofloxacin: '7623',
  olmesartan: '321064',
  omeprazole: '7646',
  ondansetron: '26225',
  oseltamivir: '260101',
  oxybutynin: '32675',
  oxycodone: '7804',
  pantoprazole: '40790',
  paroxetine: '32937',
  'penicillin v': '7984',
  permethrin: '33199',
  phenytoin: '8183',
  pioglitazone: '33738',
  'polyethylene glycol 3350': '221147',
  'polymyxin b': '8536',
  'potassium chloride': '8591',
  pravastatin: '42463',
  prednisolone: '8638',
  prednisone: '8640',
  pregabalin: '187832',
  promethazine: '8745',
  quetiapine: '51272',
  ramipril: '35296',
  rivaroxaban: '1114195',
  rizatriptan: '88014',
  rosuvastatin: '301542',
  sacubitril: '1656328',
  salmeterol: '36117',
  semaglutide: '1991302',
  sennosides: '36387', // RxNorm name: sennosides, USP
  sertraline: '36437',
  sildenafil: '136411',
  simvastatin: '36567',
  sitagliptin: '593411',
  spironolactone: '9997',
  sulfamethoxazole: '10180',
  sumatriptan: '37418',
  tadalafil: '358263',
  tamsulosin: '77492',
  terbinafine: '37801',
  testosterone: '10379',
  ticagrelor: '1116632',
  tiotropium: '69120',
  topiramate: '38404',
  tramadol: '10689',
  trazodone: '10737',
  triamcinolone: '10759',
  triamterene: '10763',
  trimethoprim: '10829',
  valacyclovir: '73645',
  valsartan: '69749',
  varenicline: '591622',
  venlafaxine: '39786',
  warfarin: '11289',
  zolpidem: '39993',
};
