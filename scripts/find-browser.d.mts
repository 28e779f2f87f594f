export const HOW_TO_GET_ONE: string;
export function findBrowser(): string | null;
