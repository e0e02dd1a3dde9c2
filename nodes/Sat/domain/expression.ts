import { checkRfc } from '../../shared/tax/rfc';
import { trimEnd } from '../../shared/text';
import { xmlEscape } from '../../shared/xml';

/**
 * The `expresionImpresa` the SAT's status service (`ConsultaCFDIService`, operation `Consulta`) is asked with:
 * the text of the CFDI's QR code, built from its stamp's UUID, the issuer's and receiver's RFCs, its total and,
 * for CFDI 3.3 and 4.0, the last 8 characters of its seal (SAT, Documentación del Servicio de Consulta de CFDI
 * v1.2; Anexo 20, the printed representation's QR code):
 * - CFDI 3.3 and 4.0: `?id=<UUID>&re=<issuer RFC>&rr=<receiver RFC>&tt=<total>&fe=<last 8 of Sello>`, the total
 *   with at most 6 decimals, trailing zeros dropped but one decimal kept (`1000.0`, `1160.5`, `0.123457`). The QR
 *   text puts the SAT's verification page before the `?`; the service reads the query, so the node sends it
 *   without that address, as the service's documentation shows it.
 * - CFDI 3.2: `?re=<issuer RFC>&rr=<receiver RFC>&tt=<total>&id=<UUID>`, the total as 10 integer digits and 6
 *   decimals, zero-padded (`0000001160.000000`); no seal.
 * An RFC holding `&` (it is a letter of the RFC alphabet) is XML-encoded inside the expression (`&amp;`), so that
 * it cannot end its own parameter; the whole expression is then XML-escaped again in the SOAP body.
 * Pure functions, no n8n types: the node validates its input with `expressionProblems`, then builds.
 */

/** The CFDI versions whose expression the node builds; 3.3 and 4.0 share one form. */
export const CFDI_VERSIONS = ['4.0', '3.3', '3.2'] as const;
export type CfdiVersion = (typeof CFDI_VERSIONS)[number];

/** What the expression is made of, as the user or the CFDI gave it (checked by `expressionProblems`). */
export interface ExpressionInput {
	version: CfdiVersion;
	uuid: string;
	issuerRfc: string;
	receiverRfc: string;
	/** The total as a decimal text (`"1160.00"`) or a number. */
	total: string | number;
	/** The seal (`Comprobante@Sello`) or its last 8 characters; optional, ignored for 3.2. */
	seal?: string;
}

/** A stamp's UUID (TimbreFiscalDigital@UUID): 8-4-4-4-12 hexadecimal digits. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An amount of a CFDI (Anexo 20, t_Importe): up to 18 integer digits and 6 decimals, never negative. */
const AMOUNT = /^(\d{1,18})(?:\.(\d{1,6}))?$/;

/** The characters of a seal (base64). */
const SEAL = /^[A-Za-z0-9+/=]+$/;

/** Field → what is wrong, for every field of `input` the SAT could not match (empty when none). */
interface ExpressionCheck {
	problems: Array<{ field: keyof ExpressionInput; problem: string }>;
	/** RFC check-digit failures: some real RFCs fail it, so the request is still sent. */
	warnings: Array<{ field: keyof ExpressionInput; warning: string }>;
}

/** The total as the plain decimal text the expression is built from, or undefined when it is not an amount. */
function amountText(total: string | number): string | undefined {
	// A number has no written decimals: it is rounded to 6, the most a CFDI amount has (0.1 + 0.2 is asked as
	// 0.3, not 0.30000000000000004). A text is taken as written, and more than 6 decimals are refused.
	const text =
		typeof total === 'number'
			? Number.isFinite(total) && total >= 0
				? total.toFixed(6)
				: ''
			: total.trim();
	return AMOUNT.test(text) ? text : undefined;
}

/** Checks `input` without building anything: what the SAT could never match, and check-digit warnings. */
export function expressionProblems(input: ExpressionInput): ExpressionCheck {
	const check: ExpressionCheck = { problems: [], warnings: [] };
	if (!UUID.test(input.uuid.trim()))
		check.problems.push({
			field: 'uuid',
			problem: `${JSON.stringify(input.uuid)} is not a UUID (32 hexadecimal digits as 8-4-4-4-12, e.g. 5FB2822E-396D-4725-8521-CDC4BDD20CCF)`,
		});
	for (const field of ['issuerRfc', 'receiverRfc'] as const) {
		const rfc = checkRfc(input[field]);
		if (rfc.error)
			check.problems.push({ field, problem: `${JSON.stringify(input[field])} ${rfc.error}` });
		else if (rfc.warning) check.warnings.push({ field, warning: rfc.warning });
	}
	const amount = amountText(input.total);
	if (amount === undefined) {
		check.problems.push({
			field: 'total',
			problem: `${JSON.stringify(input.total)} is not a CFDI total: a number of at least 0 with a point for decimals and at most 6 decimals (e.g. 1160.00)`,
		});
	} else if (input.version === '3.2' && amount.split('.')[0].replace(/^0+(?=\d)/, '').length > 10) {
		check.problems.push({
			field: 'total',
			problem: `${amount} has more than 10 integer digits, which a CFDI 3.2 total cannot have`,
		});
	}
	const seal = input.seal?.trim() ?? '';
	if (input.version !== '3.2' && seal !== '') {
		if (!SEAL.test(seal))
			check.problems.push({
				field: 'seal',
				problem: 'is not a seal: the seal (Sello) is base64 text (letters, digits, + / =)',
			});
		else if (seal.length < 8)
			check.problems.push({
				field: 'seal',
				problem: `must be the last 8 characters of the seal (Sello), or the whole seal; got ${seal.length} characters`,
			});
	}
	return check;
}

/** The integer part without leading zeros ("0" stays) and the decimals as given. */
function splitAmount(amount: string): [string, string] {
	const [integer, decimals = ''] = amount.split('.');
	return [integer.replace(/^0+(?=\d)/, ''), decimals];
}

/** CFDI 3.3/4.0 `tt`: at most 6 decimals, trailing zeros dropped, one decimal kept (`1000.0`). */
export function totalForQr(amount: string): string {
	const [integer, decimals] = splitAmount(amount);
	return `${integer}.${trimEnd(decimals, '0') || '0'}`;
}

/** CFDI 3.2 `tt`: 10 integer digits and 6 decimals, zero-padded (`0000001160.000000`). */
export function totalFor32(amount: string): string {
	const [integer, decimals] = splitAmount(amount);
	return `${integer.padStart(10, '0')}.${decimals.padEnd(6, '0')}`;
}

/**
 * The `expresionImpresa` of `input`. Call `expressionProblems` first: this function assumes a valid input
 * (it throws on one it cannot build, a fault of the caller).
 */
export function buildExpression(input: ExpressionInput): string {
	const amount = amountText(input.total);
	if (amount === undefined) throw new Error(`not an amount: ${String(input.total)}`);
	const uuid = input.uuid.trim();
	const re = xmlEscape(checkRfc(input.issuerRfc).normalized);
	const rr = xmlEscape(checkRfc(input.receiverRfc).normalized);
	if (input.version === '3.2') return `?re=${re}&rr=${rr}&tt=${totalFor32(amount)}&id=${uuid}`;
	const seal = input.seal?.trim() ?? '';
	const fe = seal ? `&fe=${seal.slice(-8)}` : '';
	return `?id=${uuid}&re=${re}&rr=${rr}&tt=${totalForQr(amount)}${fe}`;
}
