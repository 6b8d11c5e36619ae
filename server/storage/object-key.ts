/** Object keys are server-made ids; anything else (a path, `..`) never reaches a driver. */
export const OBJECT_KEY_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
const OBJECT_KEY = new RegExp(OBJECT_KEY_PATTERN);

export const isObjectKey = (key: string) => OBJECT_KEY.test(key);

export function checkedKey(key: string): string {
  if (!OBJECT_KEY.test(key)) throw new Error(`Not an object key: ${JSON.stringify(key.slice(0, 80))}`);
  return key;
}
