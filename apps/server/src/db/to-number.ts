/** bigint and numeric arrive as numbers: every count and credit amount here fits a double. */
export const toNumber = (value: string) => Number(value);
