import {
	buildExpression,
	expressionProblems,
	totalFor32,
	totalForQr,
} from '../../nodes/Sat/domain/expression';
import { checkDigit } from '../../nodes/shared/tax/rfc';

/**
 * The `expresionImpresa` the SAT's status service is asked with (SAT, Documentación del Servicio de Consulta
 * de CFDI v1.2; the QR code of Anexo 20): its exact text for CFDI 3.3/4.0 and 3.2.
 */

const UUID = '5FB2822E-396D-4725-8521-CDC4BDD20CCF';
/** @type {{ version: '4.0' | '3.3' | '3.2'; uuid: string; issuerRfc: string; receiverRfc: string }} */
const base = { version: '4.0', uuid: UUID, issuerRfc: 'EKU9003173C9', receiverRfc: 'URE180429TM6' };

describe('the total, CFDI 3.3 and 4.0: at most 6 decimals, trailing zeros dropped, one decimal kept', () => {
	test.each([
		['1000', '1000.0'],
		['1000.00', '1000.0'],
		['1160.50', '1160.5'],
		['1160.05', '1160.05'],
		['0', '0.0'],
		['0.00', '0.0'],
		['0.000001', '0.000001'],
		['1234.567890', '1234.56789'],
		['001160.10', '1160.1'],
		['999999999999999999.999999', '999999999999999999.999999'],
	])('%s → %s', (total, tt) => {
		expect(totalForQr(total)).toBe(tt);
		expect(buildExpression({ ...base, total })).toBe(
			`?id=${UUID}&re=EKU9003173C9&rr=URE180429TM6&tt=${tt}`,
		);
	});

	test('a number is rounded to 6 decimals first: 0.1 + 0.2 is asked as 0.3', () => {
		expect(buildExpression({ ...base, total: 0.1 + 0.2 })).toContain('&tt=0.3');
		expect(buildExpression({ ...base, total: 1160 })).toContain('&tt=1160.0');
		expect(buildExpression({ ...base, total: 1160.5 })).toContain('&tt=1160.5');
	});
});

describe('the total, CFDI 3.2: 10 integer digits and 6 decimals, zero-padded', () => {
	test.each([
		['1160.00', '0000001160.000000'],
		['0', '0000000000.000000'],
		['1234567890.123456', '1234567890.123456'],
		['12.5', '0000000012.500000'],
	])('%s → %s', (total, tt) => {
		expect(totalFor32(total)).toBe(tt);
	});

	test('the 3.2 expression: re, rr, tt, id in that order, no seal', () => {
		expect(
			buildExpression({ ...base, version: '3.2', total: '1160.00', seal: 'ABCDEFGH12345678' }),
		).toBe(`?re=EKU9003173C9&rr=URE180429TM6&tt=0000001160.000000&id=${UUID}`);
	});
});

describe('the seal (fe): the last 8 characters, for 3.3 and 4.0', () => {
	test('the whole seal is cut to its last 8 characters', () => {
		expect(buildExpression({ ...base, total: '10', seal: 'QWERTYUIOPasdfghjk/OAgdg==' })).toBe(
			`?id=${UUID}&re=EKU9003173C9&rr=URE180429TM6&tt=10.0&fe=/OAgdg==`,
		);
	});

	test('its last 8 characters are sent as they are; no seal, no fe', () => {
		expect(buildExpression({ ...base, total: '10', seal: '/OAgdg==' })).toMatch(/&fe=\/OAgdg==$/);
		expect(buildExpression({ ...base, total: '10', seal: '' })).not.toContain('fe=');
		expect(buildExpression({ ...base, total: '10' })).not.toContain('fe=');
	});
});

describe('RFCs in the expression', () => {
	// A company RFC holding "&" (a letter of the RFC alphabet), with the check digit it needs.
	const withAmp = `A&B010101AB${checkDigit('A&B010101AB0')}`;

	test('an "&" is XML-encoded inside the expression, so it cannot end its parameter', () => {
		expect(withAmp).toMatch(/^A&B010101AB[0-9A]$/);
		expect(expressionProblems({ ...base, issuerRfc: withAmp, total: '1' }).problems).toEqual([]);
		expect(buildExpression({ ...base, issuerRfc: withAmp, total: '1' })).toBe(
			`?id=${UUID}&re=A&amp;B010101AB${withAmp.slice(-1)}&rr=URE180429TM6&tt=1.0`,
		);
	});

	test('RFCs are sent in upper case without spaces; Ñ as it is', () => {
		const rfc = `AÑB010101AB${checkDigit('AÑB010101AB0')}`;
		expect(
			buildExpression({
				...base,
				issuerRfc: ` ${rfc.toLowerCase()} `,
				receiverRfc: 'xaxx010101000',
				total: '1',
			}),
		).toBe(`?id=${UUID}&re=${rfc}&rr=XAXX010101000&tt=1.0`);
	});
});

describe('what is checked before asking', () => {
	const problems = (input) =>
		expressionProblems({ ...base, total: '1160.00', ...input }).problems.map(
			(p) => `${p.field}: ${p.problem}`,
		);

	test('a valid input has no problem; the generic RFCs are accepted', () => {
		expect(problems({})).toEqual([]);
		expect(problems({ receiverRfc: 'XAXX010101000' })).toEqual([]);
		expect(problems({ receiverRfc: 'XEXX010101000' })).toEqual([]);
		expect(problems({ uuid: UUID.toLowerCase() })).toEqual([]);
	});

	test('a UUID that is not 8-4-4-4-12 hexadecimal digits', () => {
		expect(problems({ uuid: '5FB2822E396D47258521CDC4BDD20CCF' })[0]).toMatch(
			/^uuid: .* is not a UUID/,
		);
		expect(problems({ uuid: '5FB2822E-396D-4725-8521-CDC4BDD20CCG' })).toHaveLength(1);
		expect(problems({ uuid: '' })).toHaveLength(1);
	});

	test('an RFC of the wrong shape is refused; a failing check digit is only a warning', () => {
		expect(problems({ issuerRfc: 'EKU900317' })[0]).toMatch(
			/^issuerRfc: "EKU900317" must be 12 \(company\) or 13/,
		);
		expect(problems({ receiverRfc: 'EKU9013173C9' })[0]).toMatch(/impossible date/);
		const check = expressionProblems({ ...base, total: '1', issuerRfc: 'AAA010101AAA' });
		expect(check.problems).toEqual([]);
		expect(check.warnings).toEqual([
			{
				field: 'issuerRfc',
				warning: expect.stringMatching(/^check digit is A but 1 was expected/),
			},
		]);
	});

	test('a total that is not a CFDI amount: text, a comma, negative, more than 6 decimals', () => {
		for (const total of [
			'abc',
			'1,160.00',
			'1160,00',
			'-5',
			'1.1234567',
			'',
			'1e3',
			'NaN',
			-1,
			Number.NaN,
		])
			expect(problems({ total })).toEqual([
				expect.stringMatching(/^total: .* is not a CFDI total/),
			]);
	});

	test('a CFDI 3.2 total of more than 10 integer digits', () => {
		expect(problems({ version: '3.2', total: '12345678901.00' })).toEqual([
			expect.stringMatching(/^total: 12345678901.00 has more than 10 integer digits/),
		]);
	});

	test('a seal shorter than 8 characters, or not base64', () => {
		expect(problems({ seal: 'Agdg==' })[0]).toMatch(/^seal: must be the last 8 characters/);
		expect(problems({ seal: 'abc def ghi' })[0]).toMatch(/^seal: is not a seal/);
		expect(problems({ version: '3.2', seal: 'x' })).toEqual([]);
	});

	test('every problem of the input at once', () => {
		expect(
			problems({ uuid: 'x', issuerRfc: 'y', receiverRfc: 'z', total: 'w', seal: '!' }),
		).toHaveLength(5);
	});
});
