import { Checker } from '../../nodes/shared/validate';
import {
	accessKeyCheckDigit,
	accessKeyProblem,
	splitAccessKey,
} from '../../nodes/shared/sri/accessKey';
import { cedulaProblem, identificationWarning, rucProblem } from '../../nodes/shared/sri/ruc';
import { checkReceipt } from '../../nodes/Receipts/domain/schemas';
/** @import { IDataObject } from 'n8n-workflow' */
import { agree, cents } from '../../nodes/Receipts/domain/totals';
import { creditNoteExample } from '../../nodes/Receipts/actions/creditNote/fields';
import { debitNoteExample } from '../../nodes/Receipts/actions/debitNote/fields';
import { invoiceExample } from '../../nodes/Receipts/actions/invoice/fields';
import { makeAccessKey, mod11 } from '../simulator/receipts';
import {
	atsRetentionBody,
	creditNoteBody,
	debitNoteBody,
	invoiceBody,
	KNOWN_ACCESS_KEY,
	retentionBody,
	settlementBody,
	waybillBody,
} from './setup';

describe('access key (clave de acceso)', () => {
	test('the SRI technical sheet example is valid and splits into its parts', () => {
		expect(accessKeyProblem(KNOWN_ACCESS_KEY)).toBeUndefined();
		expect(splitAccessKey(KNOWN_ACCESS_KEY)).toEqual({
			date: '21102011',
			receiptType: '01',
			ruc: '1792146739001',
			environment: '1',
			series: '002001',
			sequential: '000000001',
			numericCode: '12345678',
			emissionType: '1',
			checkDigit: '3',
		});
	});

	test('modulo 11 maps 11 to 0 and 10 to 1', () => {
		// Find prefixes whose raw result is 11 and 10 by brute force over the last digit.
		const base = KNOWN_ACCESS_KEY.slice(0, 47);
		const results = /** @type {Map<number, string>} */ (new Map());
		for (let d = 0; d <= 9; d++) {
			const prefix = `${base}${d}`;
			let sum = 0;
			[...prefix].reverse().forEach((c, i) => (sum += Number(c) * (2 + (i % 6))));
			results.set(11 - (sum % 11), prefix);
		}
		if (results.has(11)) expect(accessKeyCheckDigit(/** @type {any} */ (results.get(11)))).toBe(0);
		if (results.has(10)) expect(accessKeyCheckDigit(/** @type {any} */ (results.get(10)))).toBe(1);
		expect(results.has(11) || results.has(10)).toBe(true);
	});

	test('a changed digit, a wrong length or letters are refused with a reason', () => {
		const typo = `${KNOWN_ACCESS_KEY.slice(0, 10)}${(Number(KNOWN_ACCESS_KEY[10]) + 1) % 10}${KNOWN_ACCESS_KEY.slice(11)}`;
		expect(accessKeyProblem(typo)).toMatch(/check digit 3 but the SRI modulo-11 check gives \d/);
		expect(accessKeyProblem(KNOWN_ACCESS_KEY.slice(1))).toBe(
			'must be exactly 49 digits, got 48 digits',
		);
		expect(accessKeyProblem(`A${KNOWN_ACCESS_KEY.slice(1)}`)).toMatch(/must be exactly 49 digits/);
	});

	test('agrees with the simulator’s independent implementation on 200 generated keys', () => {
		for (let n = 0; n < 200; n++) {
			const key = makeAccessKey({
				kind: 'retention',
				ruc: '1792146739001',
				secuencial: n + 1,
				date: '2026-03-31',
			});
			expect(accessKeyProblem(key)).toBeUndefined();
			expect(accessKeyCheckDigit(key.slice(0, 48))).toBe(mod11(key.slice(0, 48)));
		}
	});
});

describe('RUC and cédula', () => {
	test.each([
		['1710034065', undefined],
		['1710034064', 'cédula check digit is 4 but 5 was expected'],
		['9910034065', 'is not a cédula: province code 99 does not exist'],
		['17100340', 'is not a cédula: it must be 10 digits'],
	])('cédula %s', (value, problem) => expect(cedulaProblem(value)).toBe(problem));

	test.each([
		['1792146739001', undefined], // company (third digit 9)
		['1790016919001', undefined],
		['1760001550001', undefined], // public entity (third digit 6)
		// Public entities given numbers in the company format (third digit 9): python-stdnum's ec/ruc tries the
		// public-entity rule for them too (commit "Support Ecuador public RUC with juridical format", issue #457).
		['1793221293001', undefined],
		['1710034065001', undefined], // natural person
		['1792146738001', 'RUC (company) check digit is 8 but 9 was expected'],
		['1793221283001', 'RUC (company) check digit is 3 but 9 was expected'], // fails both rules: the company one is named
		['1793221290000', 'RUC (company) check digit is 0 but 7 was expected'], // public check digit right, but establishment 0000
		['1710034065000', 'RUC establishment number must not be 000'],
		['1782146739001', 'is not a RUC: the third digit 8 is not 0-6 or 9'],
		['179214673900', 'is not a RUC: it must be 13 digits'],
	])('RUC %s', (value, problem) => expect(rucProblem(value)).toBe(problem));

	test('identification warnings follow the type code, or the length when the type is missing', () => {
		expect(identificationWarning('1710034064', '05')).toMatch(/check digit/);
		expect(identificationWarning('1710034064', undefined)).toMatch(/check digit/);
		expect(identificationWarning('1710034064', '06')).toBeUndefined(); // passport: not checked
		expect(identificationWarning('1792146738001', '04')).toMatch(/check digit/);
	});
});

describe('receipt schemas', () => {
	test.each(
		/** @type {const} */ ([
			['retention', retentionBody()],
			['atsRetention', atsRetentionBody()],
			['waybill', waybillBody()],
			['purchaseSettlement', settlementBody()],
			['purchaseSettlementReimbursement', settlementBody(true)],
		]),
	)('a complete %s passes without problems or warnings', (kind, body) => {
		const check = new Checker();
		checkReceipt(check, kind, body);
		expect(check.problems).toEqual([]);
		expect(check.warnings).toEqual([]);
	});

	test('coerces numeric strings where the spec says integer, and numbers to text where it says string', () => {
		const check = new Checker();
		const out = checkReceipt(check, 'retention', {
			...retentionBody(),
			ambiente: '2',
			tipo_emision: '1',
			secuencial: '000123',
		});
		expect(out).toMatchObject({ ambiente: 2, tipo_emision: 1, secuencial: 123 });
		const waybill = checkReceipt(new Checker(), 'waybill', { ...waybillBody(), secuencial: 45 });
		expect(waybill.secuencial).toBe('45');
	});

	test('a RUC that fails its check digit only warns', () => {
		const check = new Checker();
		const body = retentionBody();
		checkReceipt(check, 'retention', {
			...body,
			emisor: { .../** @type {object} */ (body.emisor), ruc: '1792146738001' },
		});
		expect(check.problems).toEqual([]);
		expect(check.warnings).toEqual([
			'emisor.ruc: RUC (company) check digit is 8 but 9 was expected; sent anyway, verify the RUC',
		]);
	});

	test('reimbursement items with a taxed kind warn; the obsolete informacion_adicional warns on settlements', () => {
		const check = new Checker();
		const body = settlementBody(true);
		/** @type {Array<Record<string, unknown>>} */ (body.items)[0].impuestos = [
			{ codigo: '2', codigo_porcentaje: '4', base_imponible: 100, valor: 15 },
		];
		body.totales = {
			total_sin_impuestos: 100,
			descuento: 0,
			importe_total: 115,
			impuestos: [{ codigo: '2', codigo_porcentaje: '4', base_imponible: 100, valor: 15 }],
		};
		body.pagos = [{ forma_pago: '01', total: 115 }];
		body.informacion_adicional = { Nota: 'x' };
		checkReceipt(check, 'purchaseSettlementReimbursement', body);
		expect(check.problems).toEqual([]);
		expect(check.warnings.map((w) => w.split(':')[0])).toEqual([
			'items[0].impuestos[0]',
			'informacion_adicional',
		]);
	});
});

describe('access key cross-check', () => {
	test('a key built from the receipt’s own data gives no warning', () => {
		const body = retentionBody();
		body.clave_acceso = makeAccessKey({
			kind: 'retention',
			ruc: '1792146739001',
			ambiente: 1,
			tipoEmision: 1,
			secuencial: 123,
			serie: '001002',
			date: '2026-03-31',
		});
		const check = new Checker();
		checkReceipt(check, 'retention', body);
		expect(check.problems).toEqual([]);
		expect(check.warnings).toEqual([]);
	});

	test('a valid key of another receipt warns, naming what differs', () => {
		const check = new Checker();
		checkReceipt(check, 'retention', { ...retentionBody(), clave_acceso: KNOWN_ACCESS_KEY });
		expect(check.problems).toEqual([]);
		expect(check.warnings).toEqual([
			'clave_acceso: does not match this receipt: it carries receipt type 01 (this receipt is 07), sequential 000000001 (secuencial: 123); sent anyway, verify the key',
		]);
	});
});

describe('amounts that must add up (invoices and notes)', () => {
	const problemsOf = (kind, body) => {
		const check = new Checker();
		checkReceipt(check, kind, body);
		return { problems: check.problems, warnings: check.warnings };
	};

	test('cents: amounts of two decimals and products are compared in whole cents, without float noise', () => {
		expect(cents(4359.54)).toBe(435954);
		expect(cents('0.1')).toBe(10);
		expect(cents(0.1 + 0.2)).toBe(30);
		expect(cents(622 * 7.008907)).toBe(435954);
		expect(cents('diez')).toBeUndefined();
	});

	test('equal: nothing; one cent: a warning; more: an error', () => {
		const check = new Checker();
		agree(check, 'a', 1000, 1000, 'x');
		agree(check, 'b', 1001, 1000, 'x');
		agree(check, 'c', 999, 1000, 'x');
		agree(check, 'd', 1002, 1000, 'x');
		agree(check, 'e', undefined, 1000, 'x');
		expect(check.warnings.map((w) => w.split(':')[0])).toEqual(['b', 'c']);
		expect(check.problems).toEqual([
			'd: is 10.02, but x is 10.00 (off by 0.02): the tax authority rejects a receipt whose amounts do not add up',
		]);
	});

	test.each(
		/** @type {const} */ ([
			['invoice', invoiceBody()],
			['creditNote', creditNoteBody()],
			['debitNote', debitNoteBody()],
		]),
	)('a complete %s passes without problems or warnings', (kind, body) => {
		expect(problemsOf(kind, body)).toEqual({ problems: [], warnings: [] });
	});

	test('the documentation’s own invoice example adds up (622 × 7.008907, VAT 12 %, cheque + credit + retained values)', () => {
		/** @type {IDataObject} */
		const body = {
			...invoiceBody(),
			items: [
				{
					descripcion: 'Zanahoria granel 50 Kg.',
					cantidad: 622,
					precio_unitario: 7.008907,
					descuento: 0,
					precio_total_sin_impuestos: 4359.54,
					impuestos: [
						{
							base_imponible: 4359.54,
							valor: 523.14,
							tarifa: 12,
							codigo: '2',
							codigo_porcentaje: '2',
						},
					],
				},
			],
			totales: {
				total_sin_impuestos: 4359.54,
				impuestos: [
					{ base_imponible: 4359.54, valor: 523.14, codigo: '2', codigo_porcentaje: '2' },
				],
				importe_total: 4882.68,
				propina: 0,
				descuento: 0,
			},
			valor_retenido_iva: 70.4,
			valor_retenido_renta: 29.6,
			credito: { fecha_vencimiento: '2026-12-31', monto: 1900 },
			pagos: [{ medio: 'cheque', total: 2882.68 }],
		};
		expect(problemsOf('invoice', body)).toEqual({ problems: [], warnings: [] });
	});

	test('an additional discount comes off the amount to pay; tax values are then not compared with the items', () => {
		const body = invoiceBody();
		const totales = /** @type {IDataObject} */ (body.totales);
		totales.descuento_adicional = 1;
		/** @type {IDataObject[]} */ (totales.impuestos)[0].valor = 5.25; // 15 % of 35.00
		totales.importe_total = 56 - 1 + 5.25;
		/** @type {IDataObject[]} */ (body.pagos)[1].total = 20.25;
		expect(problemsOf('invoice', body)).toEqual({ problems: [], warnings: [] });
	});

	test('an extra totals line with a zero base (as the documentation shows for VAT 0 %) is fine; one with a base is not', () => {
		const body = creditNoteBody();
		/** @type {IDataObject} */ (body.totales).impuestos = [
			.../** @type {IDataObject[]} */ (/** @type {IDataObject} */ (body.totales).impuestos),
			{ codigo: '2', codigo_porcentaje: '0', base_imponible: 0, valor: 0 },
		];
		expect(problemsOf('creditNote', body).problems).toEqual([]);
		/** @type {IDataObject[]} */ (
			/** @type {IDataObject} */ (body.totales).impuestos
		)[1].base_imponible = 5;
		expect(problemsOf('creditNote', body).problems[0]).toMatch(
			/^totales\.impuestos\[1\]\.base_imponible: is 5\.00, but the sum of the items' IVA 0 % bases is 0\.00/,
		);
	});

	test('an item without precio_total_sin_impuestos counts with cantidad × precio_unitario − descuento', () => {
		const body = invoiceBody();
		delete (/** @type {IDataObject[]} */ (body.items)[0].precio_total_sin_impuestos);
		expect(problemsOf('invoice', body)).toEqual({ problems: [], warnings: [] });
	});

	test('payments are not compared when compensaciones or retenciones change what is paid (undocumented)', () => {
		/** @type {IDataObject} */
		const body = { ...invoiceBody(), compensaciones: [{ codigo: 1, tarifa: 2, valor: 1.23 }] };
		/** @type {IDataObject[]} */ (body.pagos)[1].total = 20;
		expect(problemsOf('invoice', body).problems).toEqual([]);
	});

	test('every problem of the arithmetic is listed at once', () => {
		const body = debitNoteBody();
		/** @type {IDataObject[]} */ (body.items)[0].valor = 9.5;
		/** @type {IDataObject[]} */ (/** @type {IDataObject} */ (body.totales).impuestos)[0].valor = 2;
		expect(problemsOf('debitNote', body).problems.map((p) => p.split(':')[0])).toEqual([
			'totales.total_sin_impuestos',
			'totales.impuestos[0].valor',
			'totales.importe_total',
		]);
	});

	test('the examples offered as placeholders add up', () => {
		for (const [kind, example] of /** @type {const} */ ([
			['invoice', invoiceExample],
			['creditNote', creditNoteExample],
			['debitNote', debitNoteExample],
		])) {
			const check = new Checker();
			checkReceipt(check, kind, structuredClone(example));
			expect(check.problems.filter((p) => /add up|one cent/.test(p))).toEqual([]);
			expect(check.warnings).toEqual([]);
		}
	});
});
