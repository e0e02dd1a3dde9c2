import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What every file of examples/ must be for n8n to import it: a workflow whose name fits n8n's database column
 * (`workflow_entity.name` is a varchar(128) in PostgreSQL, which refuses a longer name: queue mode runs on it),
 * whose nodes of this package use the type names of a community install.
 */
const dir = join(__dirname, '..', '..', 'examples');
const examples = readdirSync(dir).filter((f) => f.endsWith('.json'));

test.each(examples)('%s can be imported by n8n on PostgreSQL', (file) => {
	const workflow = JSON.parse(readFileSync(join(dir, file), 'utf8'));
	expect(typeof workflow.name).toBe('string');
	expect(workflow.name.length).toBeLessThanOrEqual(128);
	const ours = workflow.nodes.filter((n) => /latam-fiscal|^CUSTOM\./.test(n.type));
	expect(ours.length).toBeGreaterThan(0);
	for (const n of ours) expect(n.type).toMatch(/^n8n-nodes-latam-fiscal\.[a-zA-Z]+$/);
});

/**
 * The examples teach what the Receipts node is for: a body with only what was sold (quantities, unit prices, tax
 * codes, bases and percentages), the node computing every amount (docs/receipts.md, "Amounts computed from what
 * was sold"). No example may compute one by hand: in the body, in an expression, or in a column it maps.
 */
const COMPUTED =
	/"(precio_total_sin_impuestos|totales|importe_total|total_sin_impuestos|valor|valor_retenido|tarifa|total)"\s*:/;
const receiptBodies = examples.flatMap((file) => {
	const workflow = JSON.parse(readFileSync(join(dir, file), 'utf8'));
	return workflow.nodes
		.filter((n) => n.type === 'n8n-nodes-latam-fiscal.receipts' && n.parameters?.jsonBody)
		.map((n) => [`${file} › ${n.name}`, String(n.parameters.jsonBody)]);
});

test('there are example receipt bodies to check', () => {
	expect(receiptBodies.length).toBeGreaterThanOrEqual(2);
});

test.each(receiptBodies)('%s leaves every amount to the node', (_name, body) => {
	expect(body).not.toMatch(COMPUTED);
	const expressions = body.match(/\{\{[^}]*\}\}/g) ?? [];
	for (const e of expressions) expect(e).not.toMatch(/Math\.|[*/+]|\s-\s/);
	// The columns it maps are what was sold, not amounts computed elsewhere.
	for (const e of expressions) expect(e).not.toMatch(/\$json\.(subtotal|total|iva_valor|valor)\b/);
});

/**
 * No example chooses the ATS's Tax Support for the bookkeeper (docs/sri.md: the node never picks one, only the
 * bookkeeper knows what a purchase is for): every Build the ATS ships Not Chosen Yet, and the sandbox fills one in
 * to run it (scripts/n8n/sandbox.mjs fillPlaceholders).
 */
const annexes = examples.flatMap((file) =>
	JSON.parse(readFileSync(join(dir, file), 'utf8'))
		.nodes.filter((n) => n.parameters?.resource === 'monthlyAnnex')
		.map((n) => [`${file} › ${n.name}`, n.parameters.taxSupport]),
);

test.each(annexes)('%s ships with Tax Support Not Chosen Yet', (_name, taxSupport) => {
	expect(taxSupport ?? '').toBe('');
});
