import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { documentNumber, explainOutcome } from '../../domain/outcome';

export const simplifyField: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: false,
	description:
		'Whether to return only the key fields (state, rejected, reason, next step, SRI messages, document number, ID, access key, authorization number and date, URLs) instead of the whole receipt. Both carry the same rejected, reason, next_step and sri_messages fields.',
};

/** Every Receipts request: how long it may take at most (a deadline, not an idle timer). Read once per execution (first item). */
export const requestTimeoutOption: INodeProperties = {
	displayName: 'Request Timeout (Seconds)',
	name: 'requestTimeout',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 3600 },
	default: 60,
	description:
		'How long one request may take at most, from sending it to the last byte of the answer, retries included (read once per execution, from the first item); an answer that arrives slowly is cut at that time too. A request that issues or signs is never re-sent after a timeout: the item then says the receipt may exist.',
};

/**
 * The key fields of a receipt (`receipt` as `present` shaped it). A rejected receipt has no printable-form link:
 * its RIDE is not a valid document. `autorizacion_mensajes` stays for workflows written before `sri_messages`.
 */
function simplify(receipt: IDataObject): IDataObject {
	const auth = (receipt.autorizacion ?? {}) as IDataObject;
	const out: IDataObject = {
		estado: receipt.estado ?? auth.estado,
		rejected: receipt.rejected,
		reason: receipt.reason,
		next_step: receipt.next_step,
		sri_messages: receipt.sri_messages,
		numero: receipt.numero,
		id: receipt.id,
		clave_acceso: receipt.clave_acceso,
		autorizacion_numero: auth.numero,
		autorizacion_fecha: auth.fecha,
		autorizacion_mensajes:
			Array.isArray(auth.mensajes) && auth.mensajes.length ? auth.mensajes : undefined,
		url_formato_impresion: receipt.rejected === true ? undefined : receipt.url_formato_impresion,
		url_documento_electronico: receipt.url_documento_electronico,
		es_valida: receipt.es_valida,
		wait_timed_out: receipt.wait_timed_out,
		warnings: receipt.warnings,
	};
	for (const key of Object.keys(out)) if (out[key] === undefined) delete out[key];
	return out;
}

/**
 * What a receipt-returning operation outputs for item `i` (Issue, Issue From XML, Reissue, Authorize, Get, and
 * what Wait for Final State follows): the outcome a bookkeeper reads first — `estado`, `rejected`, `reason`,
 * `next_step`, `sri_messages` (domain/outcome.ts, explainOutcome) — then the receipt, with its document number
 * (`numero`) when the service sent none, and warnings; Simplify applied when asked.
 */
export function present(
	this: IExecuteFunctions,
	i: number,
	receipt: IDataObject,
	warnings: string[] = [],
): IDataObject {
	const outcome = explainOutcome(receipt);
	const numero = documentNumber(receipt);
	const out: IDataObject = {
		...(receipt.estado !== undefined ? { estado: receipt.estado } : {}),
		...outcome,
		...receipt,
		...(numero ? { numero } : {}),
		// Computed last: the service's own fields of these names, if it ever sends some, do not hide the outcome.
		...outcome,
	};
	const all = [
		...new Set([...(Array.isArray(out.warnings) ? (out.warnings as string[]) : []), ...warnings]),
	];
	if (all.length) out.warnings = all;
	else delete out.warnings;
	return this.getNodeParameter('simplify', i, false) ? simplify(out) : out;
}
