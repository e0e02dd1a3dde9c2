/** @import { INodeProperties, INodeTypeDescription } from 'n8n-workflow' */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NodeHelpers } from 'n8n-workflow';
import { built } from '../harness/engine';

/**
 * What a bookkeeper meets before running anything: finding the node, and a form in the SRI's words whose
 * defaults are safe. Version 1 keeps its defaults (a saved workflow stores only what differs from them).
 */

const receipts = /** @type {{ description: INodeTypeDescription }} */ (
	built('nodes/Receipts/Receipts.node', 'Receipts')
).description;
const trigger = /** @type {{ description: INodeTypeDescription }} */ (
	built('nodes/Triggers/ReceiptsTrigger/ReceiptsTrigger.node', 'ReceiptsTrigger')
).description;
const codex = (path) =>
	JSON.parse(readFileSync(join(__dirname, '..', '..', 'nodes', path), 'utf8'));

/** The parameters n8n resolves for a node of `typeVersion` with `parameters` set (defaults filled in, hidden ones left out). */
function resolved(typeVersion, parameters) {
	const node = {
		id: 'n',
		name: 'Receipts',
		type: 'n8n-nodes-latam-fiscal.receipts',
		typeVersion,
		position: [0, 0],
		parameters,
	};
	return /** @type {Record<string, any>} */ (
		NodeHelpers.getNodeParameters(
			receipts.properties,
			parameters,
			true,
			false,
			/** @type {any} */ (node),
			receipts,
		)
	);
}

describe('finding the node', () => {
	test.each([
		'invoice',
		'factura',
		'facturación',
		'facturacion',
		'retención',
		'retencion',
		'guía de remisión',
		'guia de remision',
		'nota de crédito',
		'nota de credito',
		'nota de débito',
		'nota de debito',
		'liquidación de compra',
		'liquidacion de compra',
		'comprobante',
		'RIDE',
		'SRI',
		'IVA',
	])('"%s" is an alias of the Receipts node and of its trigger', (word) => {
		expect(codex('Receipts/Receipts.node.json').alias).toContain(word);
		expect(codex('Triggers/ReceiptsTrigger/ReceiptsTrigger.node.json').alias).toContain(word);
	});

	test('the panel shows the action node’s description for the Receipts entry (n8n shows the trigger’s there, so it begins with it)', () => {
		expect(receipts.description).toMatch(/^Issue Ecuadorian electronic receipts/);
		expect(trigger.description.startsWith(receipts.description)).toBe(true);
	});
});

describe('the form, version by version', () => {
	test('new nodes are version 3 (the form of version 2, two outputs); saved workflows keep theirs', () => {
		expect(receipts.version).toEqual([1, 2, 3]);
		expect(receipts.defaultVersion).toBe(3);
	});

	test('version 2: Issue Date on the form, empty (today in Ecuador), and the identification type empty (inferred)', () => {
		const v2 = resolved(2, {
			resource: 'invoice',
			operation: 'issue',
			comprador: { details: { identificacion: '1710034065' } },
		});
		expect(v2.fecha_emision).toBe('');
		expect(v2.comprador.details.tipo_identificacion).toBe('');
		expect(v2.additionalFields).toEqual({});
		expect(v2.totales).toEqual({});
		expect(v2.emisor).toEqual({});
	});

	test('version 1 keeps its defaults: no Issue Date on the form, RUC as the identification type, Keeps Accounting No', () => {
		const v1 = resolved(1, {
			resource: 'invoice',
			operation: 'issue',
			comprador: { details: { identificacion: '1710034065' } },
			emisor: { details: { ruc: '1792146739001' } },
		});
		expect(v1.fecha_emision).toBeUndefined();
		expect(v1.comprador.details.tipo_identificacion).toBe('04');
		expect(v1.emisor.details.obligado_contabilidad).toBe(false);
	});

	test('an item of version 2 needs only a description, a quantity, a price and a tax; amounts at 0 say they are computed', () => {
		const items = receipts.properties.filter(
			(p) =>
				p.name === 'lineItems' &&
				p.displayOptions?.show?.resource?.includes('invoice') &&
				p.displayOptions?.show?.operation?.includes('issue'),
		);
		const v2 = /** @type {INodeProperties} */ (
			items.find(
				(p) =>
					JSON.stringify(p.displayOptions?.show?.['@version']) ===
					JSON.stringify([{ _cnd: { gte: 2 } }]),
			)
		);
		const values = /** @type {{ values: INodeProperties[] }[]} */ (
			/** @type {unknown} */ (v2.options)
		)[0].values;
		const byName = Object.fromEntries(values.map((v) => [v.name, v]));
		for (const name of [
			'precio_total_sin_impuestos',
			'tax_tarifa',
			'tax_base_imponible',
			'tax_valor',
		]) {
			expect(byName[name].description).toMatch(/^Computed when 0/);
			// The description is a tooltip; the hint is the line n8n shows under the field.
			expect(byName[name].hint).toBe('Leave 0: the node computes it');
		}
		expect(byName.tax_codigo.default).toBe('2');
		expect(byName.tax_codigo_porcentaje.default).toBe('4');
	});

	test('version 2 says above Totals that the totals are computed, in words that fit the kind (a collection shows no hint)', () => {
		const notices = receipts.properties.filter((p) => p.name === 'computedTotalsNotice');
		const byResource = Object.fromEntries(
			notices.flatMap((p) =>
				(p.displayOptions?.show?.resource ?? []).map((r) => [r, p.displayName]),
			),
		);
		expect(byResource).toEqual({
			invoice: expect.stringMatching(
				/^The totals and the tax totals are computed from the items\. Add Totals only to give an additional discount or a tip, or to state a total yourself/,
			),
			creditNote: expect.stringMatching(
				/^The totals and the tax totals are computed from the items\. Add Totals only to state a total yourself/,
			),
			purchaseSettlement: expect.stringMatching(
				/^The totals and the tax totals are computed from the items\./,
			),
			debitNote: expect.stringMatching(
				/^The totals are computed from the charges and the taxes below\./,
			),
		});
		for (const p of notices)
			expect(JSON.stringify(p.displayOptions?.show?.['@version'])).toBe(
				JSON.stringify([{ _cnd: { gte: 2 } }]),
			);
	});

	test('labels fit the parameter panel: no display name of the version 2 form is longer than 50 characters', () => {
		// n8n's parameter panel shows a label on one line and cuts what does not fit (design system, N8nInputLabel:
		// white-space nowrap, overflow hidden); at the panel's usual width that is about 50 characters, fewer
		// inside a collection. Dropdowns filled from the service end in n8n's " Name or ID", which counts.
		const MAX = 50;
		/** Whether a `@version` condition of displayOptions admits version 2 (a plain number, or n8n's `_cnd`). */
		const admits2 = (/** @type {any[]} */ values) =>
			values.some((v) =>
				typeof v === 'number'
					? v === 2
					: Object.entries(v._cnd ?? {}).every(
							([op, n]) => ({ eq: 2 === n, gte: 2 >= n, gt: 2 > n, lte: 2 <= n, lt: 2 < n })[op],
						),
			);
		const inV2 = (/** @type {INodeProperties} */ p) => {
			const show = p.displayOptions?.show?.['@version'];
			const hide = p.displayOptions?.hide?.['@version'];
			return (!show || admits2(show)) && (!hide || !admits2(hide));
		};
		const labels = new Set();
		// Inside a collection the panel is indented: there, at most 45 characters.
		const nested = new Set();
		const walk = (/** @type {INodeProperties[]} */ props, inside = false) => {
			for (const p of props.filter(inV2)) {
				if (p.type !== 'notice') (inside ? nested : labels).add(p.displayName); // a notice is text in a box that wraps, not a label
				for (const o of /** @type {any[]} */ (p.options ?? [])) {
					if (o && Array.isArray(o.values)) {
						labels.add(o.displayName);
						walk(o.values, true);
					} else if (p.type === 'collection') {
						walk([o], true);
					}
				}
			}
		};
		walk(receipts.properties);
		expect([...nested].filter((label) => label.length > 45)).toEqual([]);
		for (const label of nested) labels.add(label);
		expect(labels.size).toBeGreaterThan(100);
		expect(labels).toContain('Establishment Address (Dir. Establecimiento)');
		expect([...labels].filter((label) => label.length > MAX)).toEqual([]);
	});

	test('labels keep the SRI’s Spanish term in parentheses', () => {
		const names = receipts.properties
			.filter((p) => p.displayOptions?.show?.resource?.includes('invoice'))
			.map((p) => p.displayName);
		expect(names).toEqual(
			expect.arrayContaining([
				'Sequential (Secuencial)',
				'Issue Date (Fecha Emisión)',
				'Buyer (Comprador)',
				'Items (Detalles)',
				'Payments (Pagos)',
				'Total Taxes (Total Impuestos)',
			]),
		);
	});

	test('invoice payment means show the SRI payment form the service sends; settlements choose the SRI code itself', () => {
		const means = receipts.properties
			.filter((p) => p.name === 'pagos' && p.displayOptions?.show?.resource?.includes('invoice'))
			.flatMap(
				(p) =>
					/** @type {{ values: INodeProperties[] }[]} */ (/** @type {unknown} */ (p.options))[0]
						.values,
			)
			.find((v) => v.name === 'medio');
		const options = /** @type {{ name: string; value: string }[]} */ (means?.options);
		expect(options.find((o) => o.value === 'efectivo')?.name).toBe('Cash (Efectivo) · SRI 01');
		expect(options.find((o) => o.value === 'tarjeta_credito')?.name).toBe(
			'Credit Card (Tarjeta de Crédito) · SRI 19',
		);
		expect(options.find((o) => o.value === 'transferencia')?.name).toBe(
			'Bank Transfer (Transferencia) · SRI 20',
		);
		const form = receipts.properties
			.filter(
				(p) =>
					p.name === 'pagos' && p.displayOptions?.show?.resource?.includes('purchaseSettlement'),
			)
			.flatMap(
				(p) =>
					/** @type {{ values: INodeProperties[] }[]} */ (/** @type {unknown} */ (p.options))[0]
						.values,
			)
			.find((v) => v.name === 'forma_pago');
		expect(form?.default).toBe('01');
		expect(
			/** @type {{ value: string }[]} */ (form?.options ?? []).map((o) => o.value).sort(),
		).toEqual(['01', '15', '16', '17', '18', '19', '20', '21']);
	});

	test('no example content in a default: every text default of the receipt forms is empty or a code', () => {
		const texts = [];
		const walk = (/** @type {INodeProperties[]} */ props) => {
			for (const p of props) {
				if (p.type === 'string' && typeof p.default === 'string' && p.default !== '')
					texts.push([p.name, p.default]);
				for (const o of /** @type {any[]} */ (p.options ?? []))
					if (o && typeof o === 'object' && Array.isArray(o.values)) walk(o.values);
				if (p.type === 'collection') walk(/** @type {INodeProperties[]} */ (p.options ?? []));
			}
		};
		walk(receipts.properties.filter((p) => p.displayOptions?.show?.inputMode));
		expect(Object.fromEntries(texts)).toEqual({ moneda: 'USD' });
	});
});
