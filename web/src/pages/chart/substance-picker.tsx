import type { TSubstanceOption } from '#domain/chart';
import { useSubstances } from '../../api/chart/allergies.ts';
import { ALLERGY_CATEGORY_LABELS } from './chart-labels.ts';
import type { TAllergyFormValues } from './allergy-form-values.ts';
import { CataloguePicker, type TCatalogueOption } from '../../components/catalogue-picker.tsx';

const KIND_LABELS = { class: 'Drug class', ingredient: 'Drug', allergen: 'Allergen' } as const;
const keyOf = (o: Pick<TSubstanceOption, 'kind' | 'code'>) => `${o.kind}:${o.code}`;

/** The substance options as the picker lists them, with what each is and the category it implies. */
function useSubstanceOptions(term: string): { data?: (TCatalogueOption & { option: TSubstanceOption })[] } {
  const found = useSubstances(term);
  return {
    data: found.data?.map((option) => ({
      key: keyOf(option),
      label: option.name,
      hint: `${KIND_LABELS[option.kind]} · ${ALLERGY_CATEGORY_LABELS[option.category]}`,
      option,
    })),
  };
}

/** The allergy's substance: a drug class, a drug or an allergen from the catalogue, or free text. Choosing one sets the category it implies. */
export function SubstancePicker({
  id,
  value,
  onChange,
  invalid,
  describedBy,
  disabled,
}: {
  id: string;
  value: TAllergyFormValues['substance'];
  onChange: (substance: TAllergyFormValues['substance'], category?: TSubstanceOption['category']) => void;
  invalid: boolean;
  describedBy: string | undefined;
  disabled: boolean;
}) {
  const coded = value.kind !== '' && value.kind !== 'text';
  return (
    <CataloguePicker
      id={id}
      text={value.name}
      codedAs={coded ? `${KIND_LABELS[value.kind as keyof typeof KIND_LABELS]} from the catalogue` : null}
      placeholder="Type a drug, a drug class or an allergen"
      useOptions={useSubstanceOptions}
      onType={(text) => onChange({ kind: 'text', code: '', name: text })}
      onChoose={({ option }) => onChange({ kind: option.kind, code: option.code, name: option.name }, option.category)}
      invalid={invalid}
      describedBy={describedBy}
      disabled={disabled}
    />
  );
}
