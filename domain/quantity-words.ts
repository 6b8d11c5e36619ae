/**
 * A quantity written in words as well as figures, as a prescription prints it (issue 52): a
 * figure altered on paper (10 made 100) no longer matches its words. Whole numbers up to
 * 999,999; a fraction is read digit by digit ('seven point five').
 */
const ONES = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

function belowThousand(n: number): string {
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  const tail = rest === 0 ? '' : rest < 20 ? ONES[rest]! : `${TENS[Math.floor(rest / 10)]}${rest % 10 ? `-${ONES[rest % 10]}` : ''}`;
  return [hundreds ? `${ONES[hundreds]} hundred` : '', tail].filter(Boolean).join(' ');
}

function wholeInWords(n: number): string {
  if (n === 0) return 'zero';
  const thousands = Math.floor(n / 1000);
  const rest = n % 1000;
  return [thousands ? `${belowThousand(thousands)} thousand` : '', rest ? belowThousand(rest) : ''].filter(Boolean).join(' ');
}

export function quantityInWords(quantity: number): string {
  if (!Number.isFinite(quantity) || quantity < 0 || quantity >= 1_000_000) throw new RangeError(`no words for ${quantity}`);
  const [whole, fraction] = String(quantity).split('.');
  const words = wholeInWords(Number(whole));
  return fraction ? `${words} point ${[...fraction].map((d) => ONES[Number(d)]).join(' ')}` : words;
}
