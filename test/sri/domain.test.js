import { chooseEntry, isoDateTime } from '../../nodes/Sri/domain/answer';
import { keyProblem, normalizeKey } from '../../nodes/Sri/domain/key';
import { kindByRoot } from '../../nodes/Sri/domain/kinds';
import { readReceipt } from '../../nodes/Sri/domain/receipt';
import { authorizationFile } from '../../nodes/Sri/domain/result';
import { authorizationAddress, authorizationQuestion } from '../../nodes/Sri/domain/service';
import { totalsProblems } from '../../nodes/Sri/domain/totals';
import { parseXml } from '../../nodes/shared/xml';
import { checkDigit, keyFor, receiptXml } from '../simulator/sri';

/** The SRI node's rules, one by one (nodes/Sri/domain/). */

describe('the access key asked about', () => {
	test('a valid key of each document type and both environments', () => {
		for (const type of ['01', '03', '04', '05', '06', '07'])
			for (const env of ['1', '2']) expect(keyProblem(keyFor({ type, env }))).toBeUndefined();
	});

	test('length, digits, check digit, document type, environment digit', () => {
		const key = keyFor();
		const withDigits = (at, digits) => {
			const first48 = `${key.slice(0, at)}${digits}${key.slice(at + digits.length, 48)}`;
			return `${first48}${checkDigit(first48)}`;
		};
		expect(keyProblem(key.slice(1))).toBe('must be exactly 49 digits, got 48 digits');
		expect(keyProblem(`${key.slice(0, 48)}${(Number(key[48]) + 1) % 10}`)).toMatch(
			/^has check digit \d but the SRI modulo-11 check gives \d: the key is mistyped$/,
		);
		expect(keyProblem(withDigits(8, '02'))).toMatch(/^has document type 02 \(digits 9–10\)/);
		expect(keyProblem(withDigits(8, '08'))).toMatch(/^has document type 08/);
		expect(keyProblem(withDigits(23, '0'))).toMatch(/^has environment digit 0 \(digit 24\)/);
		expect(keyProblem('')).toBe('is required');
		expect(keyProblem(undefined)).toBe('is required');
		expect(keyProblem({})).toBe('must be text of 49 digits');
	});

	test('a key whose RUC fails its own checksum is still a key (validated by its own rule)', () => {
		expect(keyProblem(keyFor({ ruc: '1791251236001' }))).toBeUndefined();
	});

	test('spaces are dropped, anything else is kept for the check to name', () => {
		const key = keyFor();
		expect(normalizeKey(` ${key.slice(0, 20)} ${key.slice(20)}\n`)).toBe(key);
		expect(normalizeKey(`${key.slice(0, 20)}-${key.slice(20)}`)).toBe(
			`${key.slice(0, 20)}-${key.slice(20)}`,
		);
		expect(normalizeKey(12345)).toBe('12345');
	});
});

describe('where the question goes', () => {
	const address = (ambiente, given) =>
		/** @type {any} */ (authorizationAddress(ambiente, given)).address;
	const problem = (given) => /** @type {any} */ (authorizationAddress('pruebas', given)).problem;

	test("the key's environment chooses the SRI's host when no Service Address is given", () => {
		expect(address('pruebas', '')).toBe(
			'https://celcer.sri.gob.ec/comprobantes-electronicos-ws/AutorizacionComprobantesOffline',
		);
		expect(address('produccion', '  ')).toBe(
			'https://cel.sri.gob.ec/comprobantes-electronicos-ws/AutorizacionComprobantesOffline',
		);
	});

	test("a Service Address gets the service's path unless it already ends with it", () => {
		expect(address('pruebas', 'http://127.0.0.1:7401/sri/')).toBe(
			'http://127.0.0.1:7401/sri/comprobantes-electronicos-ws/AutorizacionComprobantesOffline',
		);
		expect(
			address('produccion', 'https://proxy.example.com/x/AutorizacionComprobantesOffline'),
		).toBe('https://proxy.example.com/x/AutorizacionComprobantesOffline');
	});

	test('Service Address: empty is fine, an address must be one', () => {
		expect(problem('')).toBeUndefined();
		expect(problem(undefined)).toBeUndefined();
		expect(problem('https://proxy.example.com:8443/sri')).toBeUndefined();
		expect(problem(5)).toBe('must be text: an http(s) address, or empty');
		expect(problem('file:///etc/passwd')).toMatch(/^must start with https:\/\/ or http:\/\//);
	});

	test('the question: its body is the operation the WSDL names, with the key, read back by the XML reader', () => {
		const key = keyFor();
		const question = authorizationQuestion(key, 'https://cel.sri.gob.ec/x');
		expect(question.action).toBe('""');
		const operation = parseXml(question.body);
		expect([operation.local, operation.ns]).toEqual([
			'autorizacionComprobante',
			'http://ec.gob.sri.ws.autorizacion',
		]);
		expect([
			operation.children[0].local,
			operation.children[0].ns,
			operation.children[0].text,
		]).toEqual(['claveAccesoComprobante', '', key]);
	});
});

describe('reading the answer', () => {
	test('fechaAutorizacion: the service’s dateTime as it is, the portal’s dd/mm/yyyy hh:mm:ss in Ecuador’s time', () => {
		expect(isoDateTime('2026-10-05T16:57:34.997-05:00')).toBe('2026-10-05T16:57:34.997-05:00');
		expect(isoDateTime('05/10/2026 16:57:34')).toBe('2026-10-05T16:57:34-05:00');
		expect(isoDateTime('ayer')).toBeUndefined();
	});

	test('the entry chosen: AUTORIZADO wherever it is, else the latest, else the first', () => {
		const e = (estado, fechaAutorizacion) => ({ estado, fechaAutorizacion, mensajes: [] });
		const authorized = e('AUTORIZADO', '2026-10-01T10:00:00-05:00');
		expect(chooseEntry([e('NO AUTORIZADO', '2026-10-02T10:00:00-05:00'), authorized])).toBe(
			authorized,
		);
		const later = e('NO AUTORIZADO', '2026-10-03T10:00:00-05:00');
		expect(chooseEntry([e('NO AUTORIZADO', '2026-10-02T10:00:00-05:00'), later])).toBe(later);
		const first = e('EN PROCESO', undefined);
		expect(chooseEntry([first, e('EN PROCESO', undefined)])).toBe(first);
		expect(chooseEntry([])).toBeUndefined();
	});

	test('the authorization file keeps a "]]>" inside the receipt readable', () => {
		const receipt =
			'<factura id="comprobante"><infoAdicional><campoAdicional nombre="x">a]]&gt;b</campoAdicional></infoAdicional></factura>';
		const file = authorizationFile(
			{ estado: 'AUTORIZADO', mensajes: [] },
			receipt.replace('&gt;', '>'),
		);
		const root = parseXml(file);
		expect(root.children.find((c) => c.local === 'comprobante')?.text).toBe(
			receipt.replace('&gt;', '>'),
		);
	});
});

describe('whether the amounts add up', () => {
	const factura = (edit = (x) => x) => {
		const root = parseXml(edit(receiptXml(keyFor())));
		const read = readReceipt(root);
		return totalsProblems(read.kind, read.comprobante);
	};

	test("the simulator's sample adds up", () => {
		expect(factura()).toEqual([]);
		for (const type of ['03', '04', '05', '07']) {
			const read = readReceipt(parseXml(receiptXml(keyFor({ type }))));
			expect(totalsProblems(read.kind, read.comprobante)).toEqual([]);
		}
	});

	test('a cent per line is allowed; more is said, with the figures', () => {
		expect(
			factura((x) =>
				x
					.replace(
						'<totalSinImpuestos>25.00</totalSinImpuestos>',
						'<totalSinImpuestos>25.02</totalSinImpuestos>',
					)
					.replace('<importeTotal>28.00', '<importeTotal>28.02'),
			),
		).toEqual([]);
		expect(
			factura((x) =>
				x
					.replace(
						'<totalSinImpuestos>25.00</totalSinImpuestos>',
						'<totalSinImpuestos>25.03</totalSinImpuestos>',
					)
					.replace('<importeTotal>28.00', '<importeTotal>28.03'),
			),
		).toEqual(['the items add up to 25.00 before taxes, but totalSinImpuestos is 25.03']);
	});

	test('an item whose quantity × price − discount is not its total; an IVA that is not its rate of the base', () => {
		expect(
			factura((x) =>
				x.replace(
					'<precioUnitario>10.000000</precioUnitario>',
					'<precioUnitario>11.000000</precioUnitario>',
				),
			),
		).toEqual([
			'item 1 (Resma de papel A4): cantidad × precioUnitario − descuento is 22.00, but precioTotalSinImpuesto is 20.00',
		]);
		expect(
			factura((x) =>
				x.replace(
					'<baseImponible>20.00</baseImponible><valor>3.00</valor></impuesto>',
					'<baseImponible>20.00</baseImponible><valor>3.20</valor></impuesto>',
				),
			),
		).toEqual([
			'item 1 (Resma de papel A4): IVA 3.20 is not 15 % of its base 20.00 (3.00)',
			"tax 2/4 (codigo/codigoPorcentaje): the items' values add up to 3.20, but the total's valor is 3.00",
		]);
	});

	test('a tax the items carry and the totals do not list', () => {
		const problems = factura((x) =>
			x.replace(
				/<totalImpuesto><codigo>2<\/codigo><codigoPorcentaje>0<\/codigoPorcentaje>.*?<\/totalImpuesto>/,
				'',
			),
		);
		expect(problems).toEqual([
			'tax 2/0 (codigo/codigoPorcentaje): the items carry 0.00 of it on a base of 5.00, but the totals do not list it',
		]);
	});

	test('a retention whose value is not its percentage of the base', () => {
		const xml = receiptXml(keyFor({ type: '07' })).replace(
			'<valorRetenido>1.75</valorRetenido>',
			'<valorRetenido>2.75</valorRetenido>',
		);
		const read = readReceipt(parseXml(xml));
		expect(totalsProblems(read.kind, read.comprobante)).toEqual([
			'supporting document 001001000000120, retention 1 (codigo 312): valorRetenido 2.75 is not 1.75 % of its base 100.00 (1.75)',
		]);
	});

	test('a debit note whose reasons do not add up to its total before taxes', () => {
		const xml = receiptXml(keyFor({ type: '05' })).replace(
			'<razon>Interés por mora</razon><valor>10.00</valor>',
			'<razon>Interés por mora</razon><valor>12.00</valor>',
		);
		const read = readReceipt(parseXml(xml));
		expect(totalsProblems(read.kind, read.comprobante)).toEqual([
			'the reasons (motivos) add up to 12.00, but totalSinImpuestos is 10.00',
		]);
	});

	test('a waybill has no amounts to check', () => {
		const read = readReceipt(parseXml(receiptXml(keyFor({ type: '06' }))));
		expect(read.kind).toBe(kindByRoot('guiaRemision'));
		expect(totalsProblems(read.kind, read.comprobante)).toEqual([]);
	});
});
