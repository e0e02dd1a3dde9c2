import { readFileSync } from 'node:fs';
import { TAX_SUPPORTS, TAX_SUPPORTS_BY_DOCUMENT } from '../../nodes/Sri/domain/ats/catalog';
import { atsName, money, percentage, signedMoney } from '../../nodes/Sri/domain/ats/format';
import { isoDateOf, parsePeriod } from '../../nodes/Sri/domain/ats/period';
import { keysOf } from '../../nodes/Sri/domain/ats/choices';
import { Findings } from '../../nodes/shared/findings';
import { accessKeyCheckDigit } from '../../nodes/shared/sri/accessKey';
import { ivaBaseOf } from '../../nodes/Sri/domain/receiptFacts';
import { atsXml, SEQUENCES } from '../../nodes/Sri/domain/ats/xml';
import { AT_XSD } from './xsd';

/**
 * The ATS's rules that are not an operation (nodes/Sri/domain/ats/), each checked alone: how names, amounts,
 * percentages and dates are written, the period, the bases of IVA, and the schema's element order — the writer's
 * sequences read against the SRI's at.xsd itself.
 */

describe('names: letters, digits and spaces only, as the schema takes them', () => {
	test.each([
		['Distribuidora Andina S.A.', 'Distribuidora Andina SA'],
		['Papelería Central Cía. Ltda.', 'Papeleria Central Cia Ltda'],
		['Servicios Contables Ñandú & Asociados S.A.', 'Servicios Contables Nandu Y Asociados SA'],
		['Lácteos del Valle (La Vaquita) S.A.', 'Lacteos del Valle La Vaquita SA'],
		['  José  Müller-Peña / Hijos\n', 'Jose Muller Pena Hijos'],
		['O’Brien ☃ 100%', 'OBrien 100'],
		['...', ''],
	])('%j → %j', (name, expected) => {
		expect(atsName(name)).toBe(expected);
		if (expected) expect(atsName(name)).toMatch(/^[a-zA-Z0-9][a-zA-Z0-9\s]*$/);
	});

	test('at most 500 characters', () => {
		expect(atsName('A'.repeat(600))).toHaveLength(500);
	});
});

describe('amounts written with exactly two decimals (read and added in cents: test/shared/decimal.test.js)', () => {
	test.each([
		[0, '0.00'],
		[5, '0.05'],
		[191000, '1910.00'],
		[99_999_999_999_999, '999999999999.99'],
	])('%d cents → %s', (cents, text) => expect(money(cents)).toBe(text));

	test('a negative or too large amount cannot be written where the schema takes no sign', () => {
		expect(() => money(-1)).toThrow(RangeError);
		expect(() => money(100_000_000_000_000)).toThrow(RangeError);
		expect(signedMoney(-1250)).toBe('-12.50');
	});

	test('withholding percentages: two decimals, at most 100', () => {
		expect([
			percentage(1.75),
			percentage(10),
			percentage(100),
			percentage(2.755),
			percentage(101),
		]).toEqual(['1.75', '10.00', '100.00', undefined, undefined]);
	});
});

describe('the period', () => {
	// The last complete period, on Ecuador's clock: test/shared/declaration.test.js.
	test('typed as yyyy-mm', () => {
		expect(parsePeriod('2026-10', false)).toEqual({ year: 2026, month: 10, semestral: false });
		expect(parsePeriod(' 2026-6 ', true)).toEqual({ year: 2026, month: 6, semestral: true });
		expect(parsePeriod('2026-13', false)).toEqual({
			problem: expect.stringContaining('not a month'),
		});
		expect(parsePeriod('1999-01', false)).toEqual({
			problem: expect.stringContaining('2000 or later'),
		});
		expect(parsePeriod('2026-05', true)).toEqual({ problem: expect.stringContaining('2026-06') });
	});

	test('dates an expression gives', () => {
		expect(isoDateOf('2026-10-05')).toBe('2026-10-05');
		expect(isoDateOf('2026-10-05T23:00:00-05:00')).toBe('2026-10-05');
		expect(isoDateOf('05/10/2026')).toBe('2026-10-05');
		expect(isoDateOf({ toISO: () => '2026-10-05T10:00:00.000-05:00' })).toBe('2026-10-05');
		expect([isoDateOf('31/02/2026'), isoDateOf('10/2026'), isoDateOf(20261005)]).toEqual([
			undefined,
			undefined,
			undefined,
		]);
	});
});

test('the bases of IVA by percentage code: 0 → 0 %, 6 → no objeto, 7 → exento, any other rate → gravada', () => {
	expect(['0', '2', '3', '4', '5', '6', '7', '8', '10'].map(ivaBaseOf)).toEqual([
		'baseImponible',
		'baseImpGrav',
		'baseImpGrav',
		'baseImpGrav',
		'baseImpGrav',
		'baseNoGraIva',
		'baseImpExe',
		'baseImpGrav',
		'baseImpGrav',
	]);
});

describe('access keys a form option gives (Voided Receipts, Receipts the SRI Lists for You)', () => {
	const key = '2110202601179214673900120010010000001041234567812';
	const valid = `${key.slice(0, 48)}${accessKeyCheckDigit(key.slice(0, 48))}`;
	const other = `${valid.slice(0, 30)}000000105${valid.slice(39, 48)}`;
	const otherKey = `${other}${accessKeyCheckDigit(other)}`;
	const read = (value) => {
		const findings = new Findings();
		const keys = keysOf(value, 'Voided Receipts', findings, 'form fields to fix');
		return { keys, stops: findings.stops.flatMap((g) => g.lines) };
	};

	test('a list (an expression over a node’s items, their keys or their JSON), or text by lines or commas; spaces inside a key dropped', () => {
		expect(read([valid, { clave_acceso: otherKey }, '', null])).toEqual({
			keys: [valid, otherKey],
			stops: [],
		});
		expect(read(`${valid.slice(0, 10)} ${valid.slice(10)}\r\n${otherKey};`)).toEqual({
			keys: [valid, otherKey],
			stops: [],
		});
		expect(read('')).toEqual({ keys: [], stops: [] });
	});

	test('an entry that is not a key stops the annex, naming the option and the entry', () => {
		const { stops } = read([valid, `${valid.slice(0, 48)}${(Number(valid[48]) + 1) % 10}`, 12]);
		expect(stops).toEqual([
			expect.stringMatching(
				/^Voided Receipts: entry 2, "\d{49}", has check digit \d but the SRI modulo-11 check gives \d/,
			),
			'Voided Receipts: entry 3, 12, must be exactly 49 digits, got 2 digits',
		]);
	});
});

test('every tax support a document type accepts is a code of Tabla 5', () => {
	const codes = TAX_SUPPORTS.map((t) => t.code);
	expect(new Set(codes).size).toBe(16);
	for (const accepted of Object.values(TAX_SUPPORTS_BY_DOCUMENT))
		for (const code of accepted) expect(codes).toContain(code);
});

describe('the schema’s element order', () => {
	const xsd = readFileSync(AT_XSD, 'latin1');
	/** The element names of complex type `type`'s sequence, in order (an extension's after its base's). */
	const sequenceOf = (type) => {
		const start = xsd.indexOf(`<xsd:complexType name="${type}">`);
		const body = xsd.slice(start, xsd.indexOf('</xsd:complexType>', start));
		const base = /<xsd:extension base="(\w+)">/.exec(body)?.[1];
		// The sequence's own elements (none of these types nests another sequence or type).
		const names = [...body.matchAll(/<xsd:element name="(\w+)"/g)].map((m) => m[1]);
		return [...(base ? sequenceOf(base) : []), ...names];
	};
	const types = {
		iva: 'ivaType',
		compras: 'comprasType',
		detalleCompras: 'detalleComprasType',
		pagoExterior: 'pagoExteriorType',
		formasDePago: 'formasDePagoType',
		air: 'airType',
		detalleAir: 'detalleAirComprasType',
		reembolsos: 'reembolsosType',
		reembolso: 'reembolsoType',
		ventas: 'ventasType',
		detalleVentas: 'detalleVentasType',
		ventasEstablecimiento: 'ventasEstablecimientoType',
		ventaEst: 'ventaEstType',
		anulados: 'anuladosType',
		detalleAnulados: 'detalleAnuladosType',
	};

	test.each(Object.entries(types))('<%s> is written in the order of %s', (element, type) => {
		expect(SEQUENCES[element]).toEqual(sequenceOf(type));
	});

	test('every sequence the writer knows is read against the schema here', () => {
		expect(Object.keys(SEQUENCES).sort()).toEqual(Object.keys(types).sort());
	});

	test('a reimbursement’s bases are in another order than its purchase’s: 0 %, taxed, no objeto, exento', () => {
		const bases = (names) => names.filter((n) => /^base/.test(n));
		expect(bases(SEQUENCES.detalleCompras)).toEqual([
			'baseNoGraIva',
			'baseImponible',
			'baseImpGrav',
			'baseImpExe',
		]);
		expect(bases(SEQUENCES.reembolso)).toEqual([
			'baseImponibleReemb',
			'baseImpGravReemb',
			'baseNoGraIvaReemb',
			'baseImpExeReemb',
		]);
	});

	test('a record is written in its sequence’s order whatever order it was built in; an unknown child throws', () => {
		const xml = atsXml({
			Mes: '10',
			TipoIDInformante: 'R',
			codigoOperativo: 'IVA',
			IdInformante: '1',
		});
		expect(xml.match(/<(\w+)>/g)).toEqual([
			'<iva>',
			'<TipoIDInformante>',
			'<IdInformante>',
			'<Mes>',
			'<codigoOperativo>',
		]);
		expect(() => atsXml({ Mes: '10', mes: '10' })).toThrow('<iva> of the ATS has no <mes>');
		expect(atsXml({ razonSocial: 'A & B <C>' })).toContain(
			'<razonSocial>A &amp; B &lt;C&gt;</razonSocial>',
		);
	});
});
