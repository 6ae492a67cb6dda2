import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const eventsFile = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../src/api/model/events.ts',
);

/**
 * Every kind of event the wire union `ServerEvent` (src/api/model/events.ts) describes: its
 * `type`, joined by `/` to each `op` where the variant has one (`realm/deactivated`). The server
 * emits events of these types only (server/events/types.ts), so a new kind appears here first.
 * Read with the type checker rather than by pattern, so that variants written as interfaces,
 * intersections or unions of ops all count.
 */
export function wireEventKinds(): string[] {
  // Literal types need no standard library; leaving it out keeps this to the wire files.
  const program = ts.createProgram([eventsFile], { noLib: true, types: [], noEmit: true });
  const checker = program.getTypeChecker();
  const alias = program
    .getSourceFile(eventsFile)!
    .statements.find(
      (s): s is ts.TypeAliasDeclaration =>
        ts.isTypeAliasDeclaration(s) && s.name.text === 'ServerEvent',
    );
  if (!alias) throw new Error(`no ServerEvent union in ${eventsFile}`);
  const union = checker.getTypeAtLocation(alias.name);
  const literals = (variant: ts.Type, name: string): string[] => {
    const property = variant.getProperty(name);
    if (!property) return [];
    const type = checker.getTypeOfSymbol(property);
    return (type.isUnion() ? type.types : [type])
      .filter((t): t is ts.StringLiteralType => t.isStringLiteral())
      .map((t) => t.value);
  };
  const kinds = new Set<string>();
  for (const variant of union.isUnion() ? union.types : [union]) {
    const types = literals(variant, 'type');
    if (!types.length)
      throw new Error(
        `a ServerEvent variant without a literal type: ${checker.typeToString(variant)}`,
      );
    const ops = literals(variant, 'op');
    for (const type of types)
      for (const op of ops.length ? ops : [undefined]) kinds.add(op ? `${type}/${op}` : type);
  }
  return [...kinds].sort();
}
