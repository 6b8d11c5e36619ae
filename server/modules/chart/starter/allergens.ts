/**
 * Starter allergen catalogue for the chart: non-drug allergens a clinician records by name, the drug
 * classes an allergy may name, and the cross-reactivity between classes that is worth a warning.
 *
 * Codes are identifiers only. ATC codes are the WHO Collaborating Centre for Drug Statistics
 * Methodology's Anatomical Therapeutic Chemical classification, used here as prefixes to match a
 * prescribed product to a class. Ingredient names are lower-case INN/USAN names; where the US and
 * international names differ, both are listed so that a check matches either spelling.
 */

export type TAllergyCategory = 'medication' | 'food' | 'environment' | 'biologic';

/** A non-drug allergen the chart offers by name (besides the formulary's drugs and drug classes). */
export interface TStarterAllergen {
  key: string;
  name: string;
  category: Exclude<TAllergyCategory, 'medication'>;
}

export const ALLERGEN_STARTER: readonly TStarterAllergen[] = [
  // Foods
  { key: 'peanut', name: 'Peanut', category: 'food' },
  { key: 'tree-nut', name: 'Tree nuts (almond, cashew, walnut, pecan, hazelnut, pistachio)', category: 'food' },
  { key: 'shellfish', name: 'Shellfish (shrimp, crab, lobster, mollusks)', category: 'food' },
  { key: 'fish', name: 'Fish (finned fish)', category: 'food' },
  { key: 'egg', name: 'Egg', category: 'food' },
  { key: 'milk', name: "Milk (cow's milk protein)", category: 'food' },
  { key: 'soy', name: 'Soy', category: 'food' },
  { key: 'wheat', name: 'Wheat', category: 'food' },
  { key: 'sesame', name: 'Sesame', category: 'food' },
  { key: 'corn', name: 'Corn', category: 'food' },
  { key: 'mustard', name: 'Mustard', category: 'food' },
  { key: 'strawberry', name: 'Strawberry', category: 'food' },
  { key: 'kiwi', name: 'Kiwi fruit', category: 'food' },
  { key: 'banana', name: 'Banana', category: 'food' },
  { key: 'avocado', name: 'Avocado', category: 'food' },
  { key: 'mammalian-meat', name: 'Mammalian meat (alpha-gal)', category: 'food' },
  { key: 'sulfites', name: 'Sulfites (food and wine preservative)', category: 'food' },
  { key: 'tartrazine', name: 'Tartrazine (yellow food dye)', category: 'food' },
  // Environment, insects and contact allergens
  { key: 'latex', name: 'Latex (natural rubber)', category: 'environment' },
  { key: 'bee-venom', name: 'Honeybee venom', category: 'environment' },
  { key: 'wasp-venom', name: 'Wasp, hornet and yellow jacket venom', category: 'environment' },
  { key: 'fire-ant', name: 'Fire ant venom', category: 'environment' },
  { key: 'pollen', name: 'Pollen (unspecified)', category: 'environment' },
  { key: 'grass-pollen', name: 'Grass pollen', category: 'environment' },
  { key: 'tree-pollen', name: 'Tree pollen', category: 'environment' },
  { key: 'ragweed', name: 'Ragweed pollen', category: 'environment' },
  { key: 'dust-mite', name: 'House dust mite', category: 'environment' },
  { key: 'mold', name: 'Mold spores', category: 'environment' },
  { key: 'cat-dander', name: 'Cat dander', category: 'environment' },
  { key: 'dog-dander', name: 'Dog dander', category: 'environment' },
  { key: 'horse-dander', name: 'Horse dander', category: 'environment' },
  { key: 'cockroach', name: 'Cockroach', category: 'environment' },
  { key: 'nickel', name: 'Nickel', category: 'environment' },
  { key: 'adhesive-tape', name: 'Adhesive tape and medical adhesives', category: 'environment' },
  { key: 'chlorhexidine', name: 'Chlorhexidine (skin antiseptic)', category: 'environment' },
  { key: 'fragrance', name: 'Fragrance mix', category: 'environment' },
  { key: 'formaldehyde', name: 'Formaldehyde', category: 'environment' },
  { key: 'hair-dye', name: 'Hair dye (p-phenylenediamine)', category: 'environment' },
  { key: 'poison-ivy', name: 'Poison ivy, oak and sumac (urushiol)', category: 'environment' },
  // Biologic products and vaccine components
  { key: 'horse-serum', name: 'Horse serum (antivenom, antitoxin)', category: 'biologic' },
  { key: 'gelatin-vaccine', name: 'Gelatin (vaccine component)', category: 'biologic' },
  { key: 'egg-protein-vaccine', name: 'Egg protein (vaccine component)', category: 'biologic' },
  { key: 'yeast-vaccine', name: "Baker's yeast (vaccine component)", category: 'biologic' },
  { key: 'blood-products', name: 'Blood products (transfusion)', category: 'biologic' },
];

/**
 * A drug class an allergy may name (an allergy to "penicillins" is checked against every
 * penicillin prescribed): its ATC code prefixes (WHO ATC, the class and its members), and the
 * ingredients (lower-case INN/USAN names) that belong to it, so a check does not depend on ATC
 * alone. Cross-reactive classes (e.g. penicillins → cephalosporins) are listed separately.
 */
export interface TDrugClass {
  key: string;
  name: string;
  atcPrefixes: readonly string[];
  ingredients: readonly string[];
}

export const DRUG_CLASSES: readonly TDrugClass[] = [
  // Antibacterials
  {
    key: 'penicillins',
    name: 'Penicillins',
    atcPrefixes: ['J01CA', 'J01CE', 'J01CF', 'J01CR'],
    ingredients: [
      'amoxicillin',
      'ampicillin',
      'penicillin g',
      'benzylpenicillin',
      'benzathine benzylpenicillin',
      'procaine benzylpenicillin',
      'penicillin v',
      'phenoxymethylpenicillin',
      'piperacillin',
      'ticarcillin',
      'dicloxacillin',
      'cloxacillin',
      'flucloxacillin',
      'nafcillin',
      'oxacillin',
      'mecillinam',
      'pivmecillinam',
      'temocillin',
    ],
  },
  {
    key: 'cephalosporins',
    name: 'Cephalosporins',
    atcPrefixes: ['J01DB', 'J01DC', 'J01DD', 'J01DE', 'J01DI01', 'J01DI02', 'J01DI04', 'J01DI54'],
    ingredients: [
      'cephalexin',
      'cefalexin',
      'cefadroxil',
      'cefazolin',
      'cephalothin',
      'cefalotin',
      'cefaclor',
      'cefprozil',
      'cefuroxime',
      'cefoxitin',
      'cefotetan',
      'cefdinir',
      'cefixime',
      'cefpodoxime',
      'cefditoren',
      'ceftibuten',
      'cefotaxime',
      'ceftriaxone',
      'ceftazidime',
      'cefepime',
      'ceftaroline',
      'ceftobiprole',
      'ceftolozane',
      'cefiderocol',
    ],
  },
  { key: 'carbapenems', name: 'Carbapenems', atcPrefixes: ['J01DH'], ingredients: ['imipenem', 'meropenem', 'ertapenem', 'doripenem'] },
  { key: 'monobactams', name: 'Monobactams', atcPrefixes: ['J01DF'], ingredients: ['aztreonam'] },
  {
    key: 'sulfonamide-antibiotics',
    name: 'Sulfonamide antibiotics ("sulfa")',
    atcPrefixes: ['J01EB', 'J01EC', 'J01ED', 'J01EE', 'A07EC01', 'D06BA01', 'S01AB04'],
    ingredients: [
      'sulfamethoxazole',
      'sulfadiazine',
      'silver sulfadiazine',
      'sulfisoxazole',
      'sulfafurazole',
      'sulfacetamide',
      'sulfadoxine',
      'sulfasalazine',
      'mafenide',
    ],
  },
  {
    key: 'macrolides',
    name: 'Macrolides',
    atcPrefixes: ['J01FA'],
    ingredients: ['erythromycin', 'azithromycin', 'clarithromycin', 'roxithromycin', 'spiramycin', 'telithromycin'],
  },
  { key: 'lincosamides', name: 'Lincosamides', atcPrefixes: ['J01FF'], ingredients: ['clindamycin', 'lincomycin'] },
  {
    key: 'fluoroquinolones',
    name: 'Fluoroquinolones',
    atcPrefixes: ['J01MA', 'S01AE'],
    ingredients: ['ciprofloxacin', 'levofloxacin', 'moxifloxacin', 'ofloxacin', 'norfloxacin', 'delafloxacin', 'gemifloxacin', 'gatifloxacin', 'besifloxacin'],
  },
  {
    key: 'tetracyclines',
    name: 'Tetracyclines',
    atcPrefixes: ['J01AA'],
    ingredients: ['doxycycline', 'minocycline', 'tetracycline', 'demeclocycline', 'tigecycline', 'omadacycline', 'eravacycline', 'sarecycline'],
  },
  {
    key: 'aminoglycosides',
    name: 'Aminoglycosides',
    atcPrefixes: ['J01G'],
    ingredients: ['gentamicin', 'tobramycin', 'amikacin', 'streptomycin', 'neomycin', 'kanamycin', 'plazomicin'],
  },
  {
    key: 'glycopeptides',
    name: 'Glycopeptides',
    atcPrefixes: ['J01XA'],
    ingredients: ['vancomycin', 'teicoplanin', 'telavancin', 'dalbavancin', 'oritavancin'],
  },
  { key: 'nitrofurans', name: 'Nitrofurans', atcPrefixes: ['J01XE'], ingredients: ['nitrofurantoin'] },
  // Analgesics and anti-inflammatories
  {
    key: 'nsaids',
    name: 'NSAIDs (non-steroidal anti-inflammatory drugs)',
    atcPrefixes: ['M01AA', 'M01AB', 'M01AC', 'M01AE', 'M01AG', 'M01AH', 'M01AX01', 'M02AA', 'S01BC', 'N02BA01', 'B01AC06'],
    ingredients: [
      'aspirin',
      'acetylsalicylic acid',
      'ibuprofen',
      'dexibuprofen',
      'naproxen',
      'ketoprofen',
      'dexketoprofen',
      'flurbiprofen',
      'fenoprofen',
      'oxaprozin',
      'diclofenac',
      'aceclofenac',
      'indomethacin',
      'indometacin',
      'sulindac',
      'etodolac',
      'ketorolac',
      'tolmetin',
      'nabumetone',
      'meloxicam',
      'piroxicam',
      'mefenamic acid',
      'meclofenamate',
      'celecoxib',
      'etoricoxib',
      'nepafenac',
      'bromfenac',
    ],
  },
  {
    key: 'salicylates',
    name: 'Salicylates',
    atcPrefixes: ['N02BA', 'B01AC06'],
    ingredients: [
      'aspirin',
      'acetylsalicylic acid',
      'salsalate',
      'diflunisal',
      'choline magnesium trisalicylate',
      'magnesium salicylate',
      'sodium salicylate',
      'methyl salicylate',
      'bismuth subsalicylate',
    ],
  },
  {
    key: 'opioids',
    name: 'Opioids',
    atcPrefixes: ['N02A', 'N01AH', 'N07BC01', 'N07BC02', 'R05DA03', 'R05DA04'],
    ingredients: [
      'morphine',
      'codeine',
      'dihydrocodeine',
      'hydrocodone',
      'hydromorphone',
      'oxycodone',
      'oxymorphone',
      'levorphanol',
      'fentanyl',
      'sufentanil',
      'remifentanil',
      'alfentanil',
      'meperidine',
      'pethidine',
      'methadone',
      'tramadol',
      'tapentadol',
      'buprenorphine',
      'butorphanol',
      'nalbuphine',
      'pentazocine',
    ],
  },
  {
    key: 'opiates-natural',
    name: 'Morphine-type opiates (natural and semi-synthetic)',
    atcPrefixes: ['N02AA', 'R05DA03', 'R05DA04'],
    ingredients: ['morphine', 'codeine', 'dihydrocodeine', 'hydrocodone', 'hydromorphone', 'oxycodone', 'oxymorphone'],
  },
  // Cardiovascular and metabolic
  {
    key: 'ace-inhibitors',
    name: 'ACE inhibitors',
    atcPrefixes: ['C09A', 'C09B'],
    ingredients: [
      'lisinopril',
      'enalapril',
      'enalaprilat',
      'ramipril',
      'benazepril',
      'captopril',
      'quinapril',
      'fosinopril',
      'perindopril',
      'trandolapril',
      'moexipril',
    ],
  },
  {
    key: 'arbs',
    name: 'Angiotensin II receptor blockers (ARBs)',
    atcPrefixes: ['C09C', 'C09D'],
    ingredients: ['losartan', 'valsartan', 'irbesartan', 'olmesartan', 'telmisartan', 'candesartan', 'azilsartan', 'eprosartan'],
  },
  {
    key: 'statins',
    name: 'Statins (HMG-CoA reductase inhibitors)',
    atcPrefixes: ['C10AA', 'C10BA', 'C10BX'],
    ingredients: ['atorvastatin', 'simvastatin', 'rosuvastatin', 'pravastatin', 'lovastatin', 'fluvastatin', 'pitavastatin'],
  },
  {
    key: 'thiazides',
    name: 'Thiazide and thiazide-like diuretics',
    atcPrefixes: ['C03AA', 'C03BA', 'C03EA'],
    ingredients: [
      'hydrochlorothiazide',
      'chlorothiazide',
      'bendroflumethiazide',
      'methyclothiazide',
      'chlorthalidone',
      'chlortalidone',
      'indapamide',
      'metolazone',
    ],
  },
  {
    key: 'loop-diuretics',
    name: 'Loop diuretics (sulfonamide type)',
    atcPrefixes: ['C03CA'],
    ingredients: ['furosemide', 'bumetanide', 'torsemide', 'torasemide'],
  },
  {
    key: 'sulfonylureas',
    name: 'Sulfonylureas',
    atcPrefixes: ['A10BB'],
    ingredients: ['glipizide', 'glyburide', 'glibenclamide', 'glimepiride', 'gliclazide', 'tolbutamide', 'tolazamide', 'chlorpropamide'],
  },
  { key: 'heparins', name: 'Heparins', atcPrefixes: ['B01AB'], ingredients: ['heparin', 'enoxaparin', 'dalteparin', 'tinzaparin', 'nadroparin'] },
  // Nervous system
  {
    key: 'anticonvulsants-aromatic',
    name: 'Aromatic anticonvulsants',
    atcPrefixes: ['N03AF01', 'N03AF02', 'N03AF04', 'N03AB', 'N03AA02', 'N03AA03', 'N03AX09'],
    ingredients: ['carbamazepine', 'oxcarbazepine', 'eslicarbazepine', 'phenytoin', 'fosphenytoin', 'phenobarbital', 'primidone', 'lamotrigine'],
  },
  {
    key: 'dibenzazepine-anticonvulsants',
    name: 'Carbamazepine and related anticonvulsants',
    atcPrefixes: ['N03AF01', 'N03AF02', 'N03AF04'],
    ingredients: ['carbamazepine', 'oxcarbazepine', 'eslicarbazepine'],
  },
  { key: 'hydantoins', name: 'Hydantoin anticonvulsants', atcPrefixes: ['N03AB'], ingredients: ['phenytoin', 'fosphenytoin', 'ethotoin'] },
  {
    key: 'benzodiazepines',
    name: 'Benzodiazepines',
    atcPrefixes: ['N05BA', 'N05CD', 'N03AE'],
    ingredients: [
      'alprazolam',
      'lorazepam',
      'diazepam',
      'clonazepam',
      'chlordiazepoxide',
      'clorazepate',
      'oxazepam',
      'clobazam',
      'temazepam',
      'triazolam',
      'midazolam',
      'estazolam',
      'flurazepam',
      'quazepam',
    ],
  },
  // Anesthesia and imaging
  {
    key: 'local-anesthetics-amide',
    name: 'Local anesthetics, amide type',
    atcPrefixes: ['N01BB', 'C01BB01', 'D04AB01'],
    ingredients: ['lidocaine', 'lignocaine', 'bupivacaine', 'levobupivacaine', 'ropivacaine', 'mepivacaine', 'prilocaine', 'articaine'],
  },
  {
    key: 'local-anesthetics-ester',
    name: 'Local anesthetics, ester type',
    atcPrefixes: ['N01BA', 'N01BC'],
    ingredients: ['procaine', 'chloroprocaine', 'tetracaine', 'amethocaine', 'benzocaine', 'proparacaine', 'proxymetacaine', 'cocaine'],
  },
  {
    key: 'neuromuscular-blockers',
    name: 'Neuromuscular blocking agents',
    atcPrefixes: ['M03AB', 'M03AC'],
    ingredients: ['succinylcholine', 'suxamethonium', 'rocuronium', 'vecuronium', 'atracurium', 'cisatracurium', 'pancuronium', 'mivacurium'],
  },
  {
    key: 'iodinated-contrast',
    name: 'Iodinated contrast media',
    atcPrefixes: ['V08A'],
    ingredients: [
      'iohexol',
      'iopamidol',
      'iodixanol',
      'ioversol',
      'iopromide',
      'iomeprol',
      'ioxilan',
      'ioxaglate',
      'diatrizoate',
      'amidotrizoic acid',
      'iothalamate',
      'iotalamic acid',
    ],
  },
  {
    key: 'gadolinium-contrast',
    name: 'Gadolinium-based contrast agents',
    atcPrefixes: ['V08CA'],
    ingredients: ['gadobutrol', 'gadoterate', 'gadoteridol', 'gadobenate', 'gadoxetate', 'gadopentetate', 'gadodiamide', 'gadopiclenol'],
  },
];

/** Known cross-reactivity worth a warning (not a hard stop): an allergy to `from` warns on `to`. */
export const CLASS_CROSS_REACTIVITY: readonly { from: string; to: string; note: string }[] = [
  {
    from: 'penicillins',
    to: 'cephalosporins',
    note: 'Cross-reactivity is uncommon (about 1-2%) and mostly follows a shared side chain, as between amoxicillin and cephalexin or cefadroxil.',
  },
  { from: 'penicillins', to: 'carbapenems', note: 'Fewer than 1% of penicillin-allergic patients react to a carbapenem.' },
  { from: 'cephalosporins', to: 'penicillins', note: 'A cephalosporin allergy seldom extends to penicillins, mainly when the two share a side chain.' },
  { from: 'cephalosporins', to: 'carbapenems', note: 'Fewer than 1% of cephalosporin-allergic patients react to a carbapenem.' },
  {
    from: 'cephalosporins',
    to: 'monobactams',
    note: 'Aztreonam shares a side chain with ceftazidime and cefiderocol; it does not otherwise cross-react with beta-lactams.',
  },
  {
    from: 'nsaids',
    to: 'salicylates',
    note: 'Reactions driven by COX-1 inhibition (respiratory disease, urticaria, angioedema) recur with aspirin and other salicylates.',
  },
  {
    from: 'salicylates',
    to: 'nsaids',
    note: 'Aspirin-sensitive patients often react to other COX-1 inhibiting NSAIDs; selective COX-2 inhibitors are usually tolerated.',
  },
  {
    from: 'opiates-natural',
    to: 'opioids',
    note: 'Most reactions to morphine-type opiates are non-immune histamine release; cross-reactivity with synthetic opioids such as fentanyl or methadone is low.',
  },
  { from: 'ace-inhibitors', to: 'arbs', note: 'Angioedema on an ACE inhibitor recurs on an angiotensin receptor blocker in a small minority of patients.' },
  {
    from: 'dibenzazepine-anticonvulsants',
    to: 'anticonvulsants-aromatic',
    note: 'Hypersensitivity to carbamazepine-type drugs (rash, DRESS, SJS/TEN) recurs with other aromatic anticonvulsants in a substantial minority of patients.',
  },
  {
    from: 'hydantoins',
    to: 'anticonvulsants-aromatic',
    note: 'Phenytoin hypersensitivity can recur with carbamazepine, oxcarbazepine, phenobarbital or lamotrigine, so these are avoided or used with caution.',
  },
];
