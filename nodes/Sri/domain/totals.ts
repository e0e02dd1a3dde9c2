import { TAX_CODES, type ReceiptKind } from './kinds';
import {
	asList,
	asNumber,
	asObject,
	asText,
	round2,
	sum,
	totalOf,
	totalTaxLines,
	type Json,
} from './receipt';

/**
 * Whether a receipt's amounts add up, as a careful bookkeeper checks them before booking it: each item
 * (quantity × unit price − discount, and its VAT), the items against the totals per tax code, and those against
 * the receipt's total; for a retention, each retained value against its base and percentage. Each line is
 * rounded to two decimals on its own, so a sum over n lines may be n cents away from one computed at once: a
 * difference of up to one cent per line is accepted (the tolerance of rounding; the SRI's own check of amounts,
 * error 52 "Error en diferencias", publishes no figure). Returns one sentence per difference found; nothing is
 * ever refused for it.
 *
 * Where the schema lets other amounts enter the total (compensaciones, reimbursements, retentions inside an
 * invoice), the receipt's total is not checked: the package would warn about receipts that are right.
 */

const CENT = 0.01;

/** Whether `actual` differs from `expected` by more than a cent per line. */
const differs = (actual: number, expected: number, lines: number) =>
	Math.abs(actual - expected) > CENT * Math.max(1, lines) + 1e-9;

const money = (n: number) => n.toFixed(2);

const label = (item: Json, n: number) => {
	const what = asText(item.descripcion) ?? asText(item.razon);
	return `item ${n}${what ? ` (${what.length > 40 ? `${what.slice(0, 37)}...` : what})` : ''}`;
};

/** VAT lines: `valor` is `baseImponible × tarifa / 100` (other taxes, ICE above all, have specific rates). */
function vatLine(line: Json, where: string, problems: string[]): void {
	if (asText(line.codigo) !== TAX_CODES.iva) return;
	const base = asNumber(line.baseImponible);
	const rate = asNumber(line.tarifa);
	const value = asNumber(line.valor);
	if (base === undefined || rate === undefined || value === undefined) return;
	const expected = round2((base * rate) / 100);
	if (differs(value, expected, 1))
		problems.push(
			`${where}: IVA ${money(value)} is not ${rate} % of its base ${money(base)} (${money(expected)})`,
		);
}

const taxKey = (line: Json) =>
	`${asText(line.codigo) ?? '?'}/${asText(line.codigoPorcentaje) ?? '?'}`;

/** Invoices, purchase settlements and credit notes: items, totals per tax code, total. */
function itemizedProblems(kind: ReceiptKind, receipt: Json, info: Json): string[] {
	const problems: string[] = [];
	const items = asList(asObject(receipt.detalles).detalle);
	const perTax = new Map<string, { base: number; value: number; lines: number }>();
	items.forEach((item, k) => {
		const where = label(item, k + 1);
		const quantity = asNumber(item.cantidad);
		const price = asNumber(item.precioUnitario);
		const total = asNumber(item.precioTotalSinImpuesto);
		if (quantity !== undefined && price !== undefined && total !== undefined) {
			const expected = round2(quantity * price - (asNumber(item.descuento) ?? 0));
			if (differs(total, expected, 1))
				problems.push(
					`${where}: cantidad × precioUnitario − descuento is ${money(expected)}, but precioTotalSinImpuesto is ${money(total)}`,
				);
		}
		for (const tax of asList(asObject(item.impuestos).impuesto)) {
			vatLine(tax, where, problems);
			const entry = perTax.get(taxKey(tax)) ?? { base: 0, value: 0, lines: 0 };
			entry.base += asNumber(tax.baseImponible) ?? 0;
			entry.value += asNumber(tax.valor) ?? 0;
			entry.lines++;
			perTax.set(taxKey(tax), entry);
		}
	});
	const itemsTotal = sum(items.map((i) => asNumber(i.precioTotalSinImpuesto)));
	const totalSinImpuestos = asNumber(info.totalSinImpuestos);
	if (
		itemsTotal !== undefined &&
		totalSinImpuestos !== undefined &&
		differs(totalSinImpuestos, itemsTotal, items.length)
	)
		problems.push(
			`the items add up to ${money(itemsTotal)} before taxes, but totalSinImpuestos is ${money(totalSinImpuestos)}`,
		);
	const taxLines = totalTaxLines(kind, info);
	if (items.length) {
		for (const line of taxLines) {
			const key = taxKey(line);
			const fromItems = perTax.get(key) ?? { base: 0, value: 0, lines: 0 };
			perTax.delete(key);
			const base = asNumber(line.baseImponible);
			const value = asNumber(line.valor);
			const expectedBase = round2(fromItems.base - (asNumber(line.descuentoAdicional) ?? 0));
			if (base !== undefined && differs(base, expectedBase, fromItems.lines))
				problems.push(
					`tax ${key} (codigo/codigoPorcentaje): the items' bases add up to ${money(expectedBase)}, but the total's baseImponible is ${money(base)}`,
				);
			if (value !== undefined && differs(value, round2(fromItems.value), fromItems.lines))
				problems.push(
					`tax ${key} (codigo/codigoPorcentaje): the items' values add up to ${money(fromItems.value)}, but the total's valor is ${money(value)}`,
				);
		}
		for (const [key, rest] of perTax)
			problems.push(
				`tax ${key} (codigo/codigoPorcentaje): the items carry ${money(rest.value)} of it on a base of ${money(rest.base)}, but the totals do not list it`,
			);
	}
	for (const line of taxLines) vatLine(line, `tax ${taxKey(line)} of the totals`, problems);
	const others = ['compensaciones', 'valorRetIva', 'valorRetRenta'].some(
		(k) => info[k] !== undefined,
	);
	if (!others && receipt.retenciones === undefined && receipt.reembolsos === undefined) {
		const total = totalOf(kind, info);
		const extras = [
			'propina',
			'fleteInternacional',
			'seguroInternacional',
			'gastosAduaneros',
			'gastosTransporteOtros',
		];
		const expected = sum([
			totalSinImpuestos,
			...taxLines.map((l) => asNumber(l.valor)),
			...extras.map((k) => asNumber(info[k])),
		]);
		const field = kind.root === 'notaCredito' ? 'valorModificacion' : 'importeTotal';
		if (
			total !== undefined &&
			expected !== undefined &&
			differs(total, expected, taxLines.length + 1)
		)
			problems.push(
				`totalSinImpuestos plus the taxes${kind.root === 'notaCredito' ? '' : ' (and tip or export costs)'} is ${money(expected)}, but ${field} is ${money(total)}`,
			);
	}
	return problems;
}

/** Debit notes: the reasons (motivos) against totalSinImpuestos, VAT, valorTotal. */
function debitNoteProblems(kind: ReceiptKind, receipt: Json, info: Json): string[] {
	const problems: string[] = [];
	const reasons = asList(asObject(receipt.motivos).motivo);
	const reasonsTotal = sum(reasons.map((r) => asNumber(r.valor)));
	const totalSinImpuestos = asNumber(info.totalSinImpuestos);
	if (
		reasonsTotal !== undefined &&
		totalSinImpuestos !== undefined &&
		differs(totalSinImpuestos, reasonsTotal, reasons.length)
	)
		problems.push(
			`the reasons (motivos) add up to ${money(reasonsTotal)}, but totalSinImpuestos is ${money(totalSinImpuestos)}`,
		);
	const taxLines = totalTaxLines(kind, info);
	for (const line of taxLines) vatLine(line, `tax ${taxKey(line)}`, problems);
	const total = totalOf(kind, info);
	const expected = sum([totalSinImpuestos, ...taxLines.map((l) => asNumber(l.valor))]);
	if (
		info.compensaciones === undefined &&
		total !== undefined &&
		expected !== undefined &&
		differs(total, expected, taxLines.length + 1)
	)
		problems.push(
			`totalSinImpuestos plus the taxes is ${money(expected)}, but valorTotal is ${money(total)}`,
		);
	return problems;
}

/** Retentions: each retained value against its base and percentage; version 2's supporting documents' totals. */
function retentionProblems(receipt: Json): string[] {
	const problems: string[] = [];
	const line = (l: Json, where: string) => {
		const base = asNumber(l.baseImponible);
		const percent = asNumber(l.porcentajeRetener);
		const value = asNumber(l.valorRetenido);
		if (base === undefined || percent === undefined || value === undefined) return;
		const expected = round2((base * percent) / 100);
		if (differs(value, expected, 1))
			problems.push(
				`${where}: valorRetenido ${money(value)} is not ${percent} % of its base ${money(base)} (${money(expected)})`,
			);
	};
	asList(asObject(receipt.impuestos).impuesto).forEach((l, k) =>
		line(l, `retention ${k + 1} (codigo ${asText(l.codigoRetencion) ?? '?'})`),
	);
	asList(asObject(receipt.docsSustento).docSustento).forEach((doc, d) => {
		const name = `supporting document ${asText(doc.numDocSustento) ?? d + 1}`;
		asList(asObject(doc.retenciones).retencion).forEach((l, k) =>
			line(l, `${name}, retention ${k + 1} (codigo ${asText(l.codigoRetencion) ?? '?'})`),
		);
		const taxes = asList(asObject(doc.impuestosDocSustento).impuestoDocSustento);
		const expected = sum([
			asNumber(doc.totalSinImpuestos),
			...taxes.map((t) => asNumber(t.valorImpuesto)),
		]);
		const total = asNumber(doc.importeTotal);
		if (
			doc.reembolsos === undefined &&
			total !== undefined &&
			expected !== undefined &&
			differs(total, expected, taxes.length + 1)
		)
			problems.push(
				`${name}: totalSinImpuestos plus its taxes is ${money(expected)}, but importeTotal is ${money(total)}`,
			);
	});
	return problems;
}

/** Every difference of a receipt's amounts, as sentences (see the top of this file). */
export function totalsProblems(kind: ReceiptKind, receipt: Json): string[] {
	const info = asObject(receipt[kind.info]);
	switch (kind.root) {
		case 'factura':
		case 'liquidacionCompra':
		case 'notaCredito':
			return itemizedProblems(kind, receipt, info);
		case 'notaDebito':
			return debitNoteProblems(kind, receipt, info);
		case 'comprobanteRetencion':
			return retentionProblems(receipt);
		default:
			return [];
	}
}
