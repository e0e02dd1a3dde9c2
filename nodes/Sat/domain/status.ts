import type { IDataObject } from 'n8n-workflow';

/**
 * What the SAT's status service says about one CFDI, turned into the node's output fields. The answer's fields
 * and words are the SAT's (SAT, Documentación del Servicio de Consulta de CFDI v1.2): `ConsultaResult` holds
 * `CodigoEstatus`, `Estado`, `EsCancelable`, `EstatusCancelacion` and `ValidacionEFOS`, every one optional.
 * - `CodigoEstatus` starts with `S` when the CFDI was found (`S - Comprobante obtenido satisfactoriamente.`) and
 *   with `N` when not: `N - 601` the expression is not valid, `N - 602` no CFDI matches it. The prefix is matched,
 *   never the whole text, which the SAT has written with and without accents and final stops.
 * - `Estado`: Vigente, Cancelado, No Encontrado.
 * - `EsCancelable`: No cancelable, Cancelable sin aceptación, Cancelable con aceptación.
 * - `EstatusCancelacion`: empty, En proceso, Plazo vencido, Cancelado con aceptación, Cancelado sin aceptación,
 *   Solicitud rechazada.
 * - `ValidacionEFOS`: 200 or 201, the issuer is not on the list of article 69-B of the Código Fiscal de la
 *   Federación (taxpayers the SAT presumes or has found to invoice simulated operations, "EFOS"); 100, it is.
 * Pure functions, no request: the transport parses the SOAP answer, this reads it.
 */

/** The children of `ConsultaResult`, by local name, trimmed (absent when the answer has no such child). */
export interface ConsultaResult {
	CodigoEstatus?: string;
	Estado?: string;
	EsCancelable?: string;
	EstatusCancelacion?: string;
	ValidacionEFOS?: string;
}

/** The issuer's listing under article 69-B, as the SAT reported it, with what it means. */
interface EfosListing extends IDataObject {
	/** The SAT's code, as sent (`200`). */
	code: string;
	/** True when the issuer is on the list, false when not, null for a code the SAT's documentation does not explain. */
	listed: boolean | null;
	meaning: string;
}

/** ValidacionEFOS codes whose meaning the SAT documents (SAT, Documentación del Servicio de Consulta de CFDI v1.2). */
const EFOS: Readonly<Record<string, { listed: boolean; meaning: string }>> = {
	'100': {
		listed: true,
		meaning:
			"The issuer is on the SAT's list under article 69-B of the Código Fiscal de la Federación (taxpayers presumed or found to invoice simulated operations, EFOS): the operations of its CFDIs may not be deductible. Check the issuer's situation on the SAT's list before booking this CFDI.",
	},
	'200': {
		listed: false,
		meaning:
			"The issuer is not on the SAT's list under article 69-B of the Código Fiscal de la Federación (EFOS).",
	},
	'201': {
		listed: false,
		meaning:
			"The issuer is not on the SAT's list under article 69-B of the Código Fiscal de la Federación (EFOS).",
	},
};

/** `ValidacionEFOS` with its meaning; undefined when the answer has none. A code nobody documents is not guessed. */
function efosListing(code: string | undefined): EfosListing | undefined {
	if (code === undefined || code === '') return undefined;
	const known = Object.hasOwn(EFOS, code) ? EFOS[code] : undefined;
	return known
		? { code, ...known }
		: {
				code,
				listed: null,
				meaning: `The SAT answered the code ${code}, which its documentation of the service does not explain: check the issuer on the SAT's list under article 69-B of the Código Fiscal de la Federación.`,
			};
}

/** How the answer reads. */
type StatusReading =
	/** The SAT answered about the CFDI (found or not): the output fields. */
	| { kind: 'status'; fields: IDataObject }
	/** `N - 601`: the SAT could not read the expression; the CFDI's data must be checked. */
	| { kind: 'invalid-expression'; codigo: string }
	/** Neither: an `N` code the SAT's documentation does not list, or no `CodigoEstatus` at all. */
	| { kind: 'unreadable'; problem: string };

/** The number of an `N - 6xx` code (`601`), or undefined. */
function nCode(codigo: string): string | undefined {
	return /^N\s*-\s*(\d+)/i.exec(codigo)?.[1];
}

/**
 * The output fields for the SAT's `result` about the CFDI `uuid`:
 * `uuid`, `estado` (the SAT's word), `valid` (true only for Vigente), `found`, `es_cancelable`,
 * `estatus_cancelacion`, `efos`, `codigo_estatus`. A field the SAT did not send is null.
 */
export function readStatus(uuid: string, result: ConsultaResult): StatusReading {
	const codigo = result.CodigoEstatus ?? '';
	const estado = result.Estado || undefined;
	const isFound = /^S\b/i.test(codigo);
	const code = nCode(codigo);
	if (!isFound) {
		if (code === '601') return { kind: 'invalid-expression', codigo };
		const notFound =
			code === '602' || (/^N\b/i.test(codigo) && /^no encontrado$/i.test(estado ?? ''));
		if (!notFound)
			return {
				kind: 'unreadable',
				problem: codigo
					? `its CodigoEstatus "${codigo}" is neither S (found) nor N - 601 / N - 602`
					: 'it has no CodigoEstatus',
			};
	}
	return {
		kind: 'status',
		fields: {
			uuid,
			estado: estado ?? (isFound ? null : 'No Encontrado'),
			valid: isFound && estado?.toLowerCase() === 'vigente',
			found: isFound,
			es_cancelable: result.EsCancelable || null,
			estatus_cancelacion: result.EstatusCancelacion || null,
			efos: efosListing(result.ValidacionEFOS) ?? null,
			codigo_estatus: codigo,
		},
	};
}

/**
 * What the SAT's answer flags for a bookkeeper, beyond `valid`: a Vigente CFDI whose issuer asked to cancel it,
 * the cancellation still in process (`EstatusCancelacion` "En proceso"). Such a CFDI is cancelled once the receiver
 * accepts, or lets the deadline pass without answering (the SAT then says "Plazo vencido"; Código Fiscal de la
 * Federación, art. 29-A, and the SAT's rules on cancellation with acceptance): it must not be booked as if it stood.
 */
export function statusWarnings(fields: IDataObject): string[] {
	const pending =
		fields.valid === true &&
		typeof fields.estatus_cancelacion === 'string' &&
		/^en proceso$/i.test(fields.estatus_cancelacion.trim());
	return pending
		? [
				"The issuer asked the SAT to cancel this CFDI and the cancellation is in process (EstatusCancelacion: En proceso): it is Vigente today, but it is cancelled once the receiver accepts or lets the deadline pass (Plazo vencido). Do not book it before the cancellation is settled: ask the issuer, or answer the request in the SAT's portal.",
			]
		: [];
}
