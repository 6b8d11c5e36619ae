/** Object keys are server-made ids; anything else (a path, `..`) never reaches a driver. */
const OBJECT_KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const isObjectKey = (key: string) => OBJECT_KEY.test(key);

export function checkedKey(key: string): string {
  if (!OBJECT_KEY.test(key)) throw new Error(`Not an object key: ${JSON.stringify(key.slice(0, 80))}`);
  return key;
}
