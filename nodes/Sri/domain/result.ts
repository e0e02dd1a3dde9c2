import type { IDataObject } from 'n8n-workflow';
import { explainMessage } from '../../shared/sri/sriMessages';
import { xmlEscape, type XmlElement } from '../../shared/xml';
import {
	chooseEntry,
	isoDateTime,
	type AuthorizationAnswer,
	type AuthorizationEntry,
} from './answer';
import { keyAmbiente, keyDate, keyProblem } from './key';
import { ambienteOf } from './kinds';
import { parseReceipt, readReceipt, type ReadReceipt } from './receipt';
import { receiptWarnings } from './warnings';

/**
 * The output of both operations, built in one place so that Check Authorization and Read XML give the same
 * fields — and the same summary for the same receipt. Top-level fields (docs/sri.md, "Output"):
 * `clave_acceso`, `estado`, `authorized`, `found`, `source`, `numero_autorizacion`, `fecha_autorizacion`,
 * `ambiente`, `numero_comprobantes`, `sri_messages`, then the summary (`tipo`, `version`, `numero`,
 * `fecha_emision`, `emisor`, `comprador`, `total_sin_impuestos`, `iva`, `importe_total`, and `retenido`,
 * `total_retenido` for a retention, `documento_modificado` for a note), `warnings`, `comprobante`.
 */

/** Where the output comes from: the SRI's answer, or a file Read XML was given. */
type Source = 'sri' | 'authorization_file' | 'receipt_file';

export interface Presented {
	json: IDataObject;
	/** The authorization (or the file read) as XML, for the binary file; undefined when there is none to give. */
	xml?: string | Buffer;
	/** The receipt read, when there was one. */
	receipt?: ReadReceipt;
}

/** A receipt inside an answer or a file, read; or why it could not be (an XML the reader refuses, not a receipt). */
type ReceiptOrReason = { receipt: ReadReceipt } | { unreadable: string };

function receiptOf(comprobante: string | XmlElement, fallbackDate?: string): ReceiptOrReason {
	let root: XmlElement;
	try {
		root = typeof comprobante === 'string' ? parseReceipt(comprobante) : comprobante;
	} catch (error) {
		return { unreadable: error instanceof Error ? error.message : String(error) };
	}
	return { receipt: readReceipt(root, fallbackDate) };
}

/**
 * The authorization file of an entry, as the SRI's portal gives it: `<autorizacion>` with the receipt in CDATA
 * (a `]]>` inside it, which CDATA cannot hold, is split across two sections).
 */
export function authorizationFile(entry: AuthorizationEntry, receiptXml: string): string {
	const field = (name: string, value: string | undefined) =>
		value === undefined ? '' : `<${name}>${xmlEscape(value)}</${name}>`;
	return (
		'<?xml version="1.0" encoding="UTF-8"?>\n<autorizacion>' +
		field('estado', entry.estado) +
		field('numeroAutorizacion', entry.numeroAutorizacion) +
		field('fechaAutorizacion', entry.fechaAutorizacion) +
		field('ambiente', entry.ambiente) +
		`<comprobante><![CDATA[${receiptXml.replace(/]]>/g, ']]]]><![CDATA[>')}]]></comprobante>` +
		'<mensajes>' +
		entry.mensajes
			.map(
				(m) =>
					'<mensaje>' +
					field('identificador', m.identificador as string | undefined) +
					field('mensaje', m.mensaje as string | undefined) +
					field('informacionAdicional', m.informacion_adicional as string | undefined) +
					field('tipo', m.tipo as string | undefined) +
					'</mensaje>',
			)
			.join('') +
		'</mensajes></autorizacion>\n'
	);
}

/**
 * Check Authorization's `estado` for a key the SRI holds no receipt for. The SRI has no word for it: it answers
 * with no entry at all (`numeroComprobantes` 0), for a key it does not know and for one it has not processed yet.
 * This is the node's word (version 2), so that a row says it in its `estado` column.
 */
export const NOT_FOUND = 'NO ENCONTRADO';

/** The SRI's state for a receipt received but not processed yet (its ficha técnica also says "en procesamiento"). */
const IN_PROCESS = new Set(['EN PROCESO', 'EN PROCESAMIENTO']);

/** What to do about a key the SRI gave no receipt for, after saying why. */
const ASK_AGAIN =
	'The SRI authorizes a receipt up to 24 hours after the issuer sends it: ask again later. If it still gives none, ask the issuer for the access key, or whether it sent the receipt to the SRI; a file you hold for it is not the SRI’s word.';

/**
 * The output for an answer (Check Authorization: `asked` is the key; Read XML of an authorization file: no key
 * asked), or why the authorization's receipt cannot be read (`unreadable`): then nothing of it is given. With
 * `sayNoReceipt` (Check Authorization of version 2), an answer without a receipt says so in `estado` — `NO
 * ENCONTRADO` (NOT_FOUND) for no entry, the SRI's `EN PROCESO` as it gave it — and in a warning saying what to do.
 */
export function presentAnswer(
	answer: AuthorizationAnswer,
	source: Exclude<Source, 'receipt_file'>,
	asked?: string,
	sayNoReceipt = false,
): Presented | { unreadable: string } {
	const entry = chooseEntry(answer.autorizaciones);
	const fallbackDate = asked ? keyDate(asked) : undefined;
	const read = entry?.comprobante ? receiptOf(entry.comprobante, fallbackDate) : undefined;
	if (read && 'unreadable' in read) return read;
	const receipt = read?.receipt;
	const estado = entry?.estado?.trim();
	const fecha = entry?.fechaAutorizacion;
	const claveAcceso =
		asked ??
		receipt?.claveAcceso ??
		[answer.claveAccesoConsultada, entry?.numeroAutorizacion].find((k) => k && !keyProblem(k));
	const ambiente =
		ambienteOf(entry?.ambiente) ??
		ambienteOf(receipt?.ambiente) ??
		(claveAcceso && !keyProblem(claveAcceso) ? keyAmbiente(claveAcceso) : undefined);
	const warnings = receipt ? receiptWarnings(receipt, { asked, ambiente }) : [];
	const numero = entry?.numeroAutorizacion;
	// Offline scheme: the SRI authorizes a receipt under its own access key (Ficha técnica, esquema offline), so a
	// 49-digit authorization number is the key. (The old online scheme's 37-digit numbers are not compared.)
	if (
		receipt?.claveAcceso &&
		numero &&
		/^\d{49}$/.test(numero) &&
		numero !== receipt.claveAcceso &&
		numero !== asked
	)
		warnings.push(
			`The authorization's numeroAutorizacion ${numero} is not the receipt's claveAcceso ${receipt.claveAcceso}: the SRI authorizes a receipt under its own access key, so the authorization is for another receipt, or the file was altered. Check the access key with the SRI (Check Authorization) before booking.`,
		);
	if (fecha && !isoDateTime(fecha))
		warnings.push(`fechaAutorizacion "${fecha}" is not a date the package reads: it is left out.`);
	if (!receipt && ambiente === 'pruebas' && entry)
		warnings.push(
			"The SRI's test environment answered (ambiente pruebas): a receipt there has no tax validity.",
		);
	let said = estado || undefined;
	if (sayNoReceipt && !entry) {
		said = NOT_FOUND;
		warnings.push(
			`The SRI holds no receipt for this access key: it answered with no entry (estado ${NOT_FOUND} is this node's word, not the SRI's). ${ASK_AGAIN}`,
		);
	} else if (sayNoReceipt && !receipt && IN_PROCESS.has((estado ?? '').toUpperCase()))
		warnings.push(
			`The SRI has received this receipt but not processed it yet (estado ${estado ?? ''}): it gives no receipt until it decides. ${ASK_AGAIN}`,
		);
	const json: IDataObject = {
		clave_acceso: claveAcceso,
		estado: said,
		authorized: (estado ?? '').toUpperCase() === 'AUTORIZADO',
		found: answer.autorizaciones.length > 0,
		source,
		numero_autorizacion: entry?.numeroAutorizacion,
		fecha_autorizacion: isoDateTime(fecha),
		ambiente,
		numero_comprobantes: answer.numeroComprobantes ?? answer.autorizaciones.length,
		sri_messages: (entry?.mensajes ?? []).map((m) => explainMessage(m, 'autorizacion')),
		...(receipt?.summary ?? {}),
		warnings,
		comprobante: receipt?.comprobante,
	};
	for (const key of Object.keys(json)) if (json[key] === undefined) delete json[key];
	const authorizedXml =
		json.authorized && entry && typeof entry.comprobante === 'string'
			? authorizationFile(entry, entry.comprobante)
			: undefined;
	return { json, xml: authorizedXml, receipt };
}

/** The output for a bare receipt given to Read XML: nothing says whether the SRI authorized it. */
export function presentReceipt(root: XmlElement): Presented {
	const receipt = readReceipt(root);
	const ambiente = ambienteOf(receipt.ambiente);
	const json: IDataObject = {
		clave_acceso: receipt.claveAcceso,
		authorized: false,
		found: true,
		source: 'receipt_file',
		ambiente,
		sri_messages: [],
		...receipt.summary,
		warnings: receiptWarnings(receipt, { ambiente }),
		comprobante: receipt.comprobante,
	};
	for (const key of Object.keys(json)) if (json[key] === undefined) delete json[key];
	return { json, receipt };
}
