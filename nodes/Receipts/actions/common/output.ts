import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

export const simplifyField: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: false,
	description:
		'Whether to return only the key fields (ID, access key, state, number, authorization number and date, authorization messages, URLs) instead of the whole receipt',
};

/** Every Receipts request: how long to wait for an answer. Read once per execution (first item). */
export const requestTimeoutOption: INodeProperties = {
	displayName: 'Request Timeout (Seconds)',
	name: 'requestTimeout',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 3600 },
	default: 60,
	description:
		'How long one request may go without an answer (read once per execution, from the first item). A request that issues or signs is never re-sent after a timeout: the item then says the receipt may exist.',
};

/** The key fields of a receipt. */
export function simplify(receipt: IDataObject): IDataObject {
	const auth = (receipt.autorizacion ?? {}) as IDataObject;
	const out: IDataObject = {
		id: receipt.id,
		clave_acceso: receipt.clave_acceso,
		estado: receipt.estado ?? auth.estado,
		numero: receipt.numero,
		autorizacion_numero: auth.numero,
		autorizacion_fecha: auth.fecha,
		autorizacion_mensajes: Array.isArray(auth.mensajes) && auth.mensajes.length ? auth.mensajes : undefined,
		url_formato_impresion: receipt.url_formato_impresion,
		url_documento_electronico: receipt.url_documento_electronico,
		es_valida: receipt.es_valida,
		wait_timed_out: receipt.wait_timed_out,
		warnings: receipt.warnings,
	};
	for (const key of Object.keys(out)) if (out[key] === undefined) delete out[key];
	return out;
}

/** What a receipt-returning operation outputs for item `i`: warnings added, Simplify applied when asked. */
export function present(this: IExecuteFunctions, i: number, receipt: IDataObject, warnings: string[] = []): IDataObject {
	const out: IDataObject = { ...receipt };
	const all = [...new Set([...(Array.isArray(out.warnings) ? (out.warnings as string[]) : []), ...warnings])];
	if (all.length) out.warnings = all;
	else delete out.warnings;
	return this.getNodeParameter('simplify', i, false) ? simplify(out) : out;
}
