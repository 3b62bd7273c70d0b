const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids from requests are checked before they reach a uuid column, where a bad one is a 500. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
