/**
 * The drug–drug interactions a prescription is checked against (issue 52;
 * docs/decisions/prescriptions.md): the fifteen pairs of the ONC high-priority list (Phansalkar S,
 * Desai AA, Bell D et al. High-priority drug–drug interactions for use in electronic health
 * records. JAMIA 2012;19(5):735–743), each between two classes of ingredients, contraindicated for
 * use together; and the clinic's own pairs besides (the shipped example: warfarin with an NSAID,
 * not on the ONC list, a moderate one).
 *
 * A class is the lower-case ingredient names (INN/USAN, as the formulary keeps them) that belong to
 * it, written from the panel's class definitions and the drugs' labels; a class may be widened as
 * the clinic's formulary grows. A pair matches in either order.
 */

export interface TInteractionClass {
  key: string;
  name: string;
  ingredients: readonly string[];
}

export type TInteractionSeverity = 'high' | 'moderate';

export interface TInteractionPair {
  /** The two classes (the same class twice: any two different members of it). */
  a: string;
  b: string;
  severity: TInteractionSeverity;
  /** What happens, in a line a prescriber reads in the alert. */
  effect: string;
  source: 'onc-2012' | 'clinic';
}

const MAOIS = ['phenelzine', 'tranylcypromine', 'isocarboxazid', 'selegiline', 'rasagiline', 'safinamide', 'procarbazine', 'linezolid', 'methylene blue'];
const PROTEASE_INHIBITORS = ['atazanavir', 'darunavir', 'fosamprenavir', 'indinavir', 'lopinavir', 'nelfinavir', 'ritonavir', 'saquinavir', 'tipranavir'];
const STRONG_CYP3A4_INHIBITORS = [
  'clarithromycin',
  'telithromycin',
  'itraconazole',
  'ketoconazole',
  'posaconazole',
  'voriconazole',
  'cobicistat',
  'nefazodone',
  'conivaptan',
  'idelalisib',
];
const CYP1A2_INHIBITORS = ['fluvoxamine', 'ciprofloxacin'];

export const INTERACTION_CLASSES: readonly TInteractionClass[] = [
  {
    key: 'amphetamines',
    name: 'amphetamine and its derivatives',
    ingredients: [
      'amphetamine',
      'dextroamphetamine',
      'lisdexamfetamine',
      'methamphetamine',
      'methylphenidate',
      'dexmethylphenidate',
      'phentermine',
      'benzphetamine',
      'diethylpropion',
      'phendimetrazine',
      'pseudoephedrine',
      'atomoxetine',
    ],
  },
  { key: 'maois', name: 'MAO inhibitors', ingredients: MAOIS },
  { key: 'atazanavir', name: 'atazanavir', ingredients: ['atazanavir'] },
  {
    key: 'ppis',
    name: 'proton pump inhibitors',
    ingredients: ['omeprazole', 'esomeprazole', 'lansoprazole', 'dexlansoprazole', 'pantoprazole', 'rabeprazole'],
  },
  { key: 'febuxostat', name: 'febuxostat', ingredients: ['febuxostat'] },
  { key: 'thiopurines', name: 'azathioprine and mercaptopurine', ingredients: ['azathioprine', 'mercaptopurine'] },
  {
    key: 'serotonergic-antidepressants',
    name: 'SSRIs and other serotonergic antidepressants',
    ingredients: [
      'fluoxetine',
      'paroxetine',
      'sertraline',
      'citalopram',
      'escitalopram',
      'fluvoxamine',
      'venlafaxine',
      'desvenlafaxine',
      'duloxetine',
      'milnacipran',
      'levomilnacipran',
      'vilazodone',
      'vortioxetine',
      'nefazodone',
      'trazodone',
    ],
  },
  { key: 'irinotecan', name: 'irinotecan', ingredients: ['irinotecan'] },
  { key: 'strong-cyp3a4-inhibitors', name: 'strong CYP3A4 inhibitors', ingredients: [...STRONG_CYP3A4_INHIBITORS, ...PROTEASE_INHIBITORS] },
  {
    key: 'serotonergic-opioids',
    name: 'narcotic analgesics',
    ingredients: ['meperidine', 'pethidine', 'methadone', 'tramadol', 'tapentadol', 'fentanyl', 'dextromethorphan'],
  },
  {
    key: 'tcas',
    name: 'tricyclic antidepressants',
    ingredients: ['amitriptyline', 'nortriptyline', 'imipramine', 'desipramine', 'clomipramine', 'doxepin', 'protriptyline', 'trimipramine', 'amoxapine'],
  },
  {
    key: 'qt-high-risk',
    name: 'high-risk QT-prolonging agents',
    ingredients: [
      'amiodarone',
      'dronedarone',
      'dofetilide',
      'ibutilide',
      'sotalol',
      'quinidine',
      'procainamide',
      'disopyramide',
      'arsenic trioxide',
      'chlorpromazine',
      'thioridazine',
      'haloperidol',
      'droperidol',
      'pimozide',
      'ziprasidone',
      'methadone',
      'pentamidine',
      'erythromycin',
      'clarithromycin',
      'moxifloxacin',
    ],
  },
  { key: 'ramelteon', name: 'ramelteon', ingredients: ['ramelteon'] },
  { key: 'cyp1a2-inhibitors', name: 'strong CYP1A2 inhibitors', ingredients: CYP1A2_INHIBITORS },
  {
    key: 'strong-cyp3a4-inducers',
    name: 'strong CYP3A4 inducers',
    ingredients: [
      'rifampin',
      'rifampicin',
      'rifapentine',
      'rifabutin',
      'carbamazepine',
      'phenytoin',
      'fosphenytoin',
      'phenobarbital',
      'primidone',
      "st john's wort",
    ],
  },
  { key: 'protease-inhibitors', name: 'HIV protease inhibitors', ingredients: PROTEASE_INHIBITORS },
  { key: 'cyp3a4-statins', name: 'simvastatin and lovastatin', ingredients: ['simvastatin', 'lovastatin'] },
  { key: 'ergot-alkaloids', name: 'ergot alkaloids', ingredients: ['ergotamine', 'dihydroergotamine', 'methylergonovine', 'ergonovine'] },
  { key: 'tizanidine', name: 'tizanidine', ingredients: ['tizanidine'] },
  { key: 'tranylcypromine', name: 'tranylcypromine', ingredients: ['tranylcypromine'] },
  { key: 'procarbazine', name: 'procarbazine', ingredients: ['procarbazine'] },
  {
    key: 'triptans',
    name: 'triptans',
    ingredients: ['sumatriptan', 'rizatriptan', 'zolmitriptan', 'almotriptan', 'naratriptan', 'frovatriptan', 'eletriptan'],
  },
  { key: 'warfarin', name: 'warfarin', ingredients: ['warfarin'] },
  {
    key: 'nsaids',
    name: 'NSAIDs',
    ingredients: [
      'aspirin',
      'ibuprofen',
      'naproxen',
      'ketoprofen',
      'flurbiprofen',
      'diclofenac',
      'indomethacin',
      'sulindac',
      'etodolac',
      'ketorolac',
      'nabumetone',
      'meloxicam',
      'piroxicam',
      'mefenamic acid',
      'celecoxib',
      'oxaprozin',
    ],
  },
];

const SEROTONIN = 'Serotonin syndrome: hyperthermia, rigidity, autonomic instability, possibly fatal.';
const HYPERTENSIVE = 'Hypertensive crisis.';

export const INTERACTION_PAIRS: readonly TInteractionPair[] = [
  { a: 'amphetamines', b: 'maois', severity: 'high', effect: HYPERTENSIVE, source: 'onc-2012' },
  { a: 'atazanavir', b: 'ppis', severity: 'high', effect: 'Much lower atazanavir levels: loss of HIV control and resistance.', source: 'onc-2012' },
  { a: 'febuxostat', b: 'thiopurines', severity: 'high', effect: 'Azathioprine or mercaptopurine accumulates: bone marrow suppression.', source: 'onc-2012' },
  { a: 'serotonergic-antidepressants', b: 'maois', severity: 'high', effect: SEROTONIN, source: 'onc-2012' },
  { a: 'irinotecan', b: 'strong-cyp3a4-inhibitors', severity: 'high', effect: 'Irinotecan toxicity: severe diarrhoea and neutropenia.', source: 'onc-2012' },
  { a: 'serotonergic-opioids', b: 'maois', severity: 'high', effect: SEROTONIN, source: 'onc-2012' },
  { a: 'tcas', b: 'maois', severity: 'high', effect: `${SEROTONIN} ${HYPERTENSIVE}`, source: 'onc-2012' },
  { a: 'qt-high-risk', b: 'qt-high-risk', severity: 'high', effect: 'Additive QT prolongation: torsades de pointes.', source: 'onc-2012' },
  { a: 'ramelteon', b: 'cyp1a2-inhibitors', severity: 'high', effect: 'Ramelteon levels many times higher: excessive sedation.', source: 'onc-2012' },
  {
    a: 'strong-cyp3a4-inducers',
    b: 'protease-inhibitors',
    severity: 'high',
    effect: 'Much lower protease inhibitor levels: loss of HIV control.',
    source: 'onc-2012',
  },
  {
    a: 'cyp3a4-statins',
    b: 'strong-cyp3a4-inhibitors',
    severity: 'high',
    effect: 'Statin levels many times higher: myopathy and rhabdomyolysis.',
    source: 'onc-2012',
  },
  {
    a: 'ergot-alkaloids',
    b: 'strong-cyp3a4-inhibitors',
    severity: 'high',
    effect: 'Ergotism: vasospasm and ischaemia of the limbs and brain.',
    source: 'onc-2012',
  },
  { a: 'tizanidine', b: 'cyp1a2-inhibitors', severity: 'high', effect: 'Tizanidine levels many times higher: hypotension and sedation.', source: 'onc-2012' },
  { a: 'tranylcypromine', b: 'procarbazine', severity: 'high', effect: `${HYPERTENSIVE} Seizures.`, source: 'onc-2012' },
  { a: 'triptans', b: 'maois', severity: 'high', effect: 'Triptan levels much higher; serotonin toxicity.', source: 'onc-2012' },
  { a: 'warfarin', b: 'nsaids', severity: 'moderate', effect: 'Bleeding, gastrointestinal above all.', source: 'clinic' },
];
