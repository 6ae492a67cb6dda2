// The types of import-rules.mjs, for the TypeScript test that checks its rules.

export interface ImportRule {
  name: string;
  from: string[];
  to?: string[];
  packages?: string[];
  unless?: string[];
  why: string;
}

export type ImportEdge = [from: string, to: string];

export const RULES: ImportRule[];

export function violations(
  edges: ImportEdge[],
  rules?: ImportRule[],
): { from: string; to: string; rule: ImportRule }[];
