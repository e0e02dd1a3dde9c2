import { XmlError } from '../../../shared/xml';
import type { Json } from '../receipt';
import { NOT_FOUND } from '../result';
import { readReceiptFile, receiptFacts, rootOfTipo } from '../receiptFacts';
import type { AnnexItem } from './admit';

/**
 * One input item of the ATS as the annex takes it: the receipt it carries — from its XML file (a bare receipt or
 * the SRI's authorization file), else from the JSON of Read XML or Check Authorization — and what the SRI said of
 * it, from the file's authorization or the JSON's `estado`. The operation reads the item's bytes and hands them
 * here (shared/declaration.ts `documentsOf`); an item that is not a receipt is `{ unread }`, in words that
 * follow the item's name.
 */

/** What the SRI said: its state, in its words, and whether it gave no receipt at all (no entry, in process). */
type Said = { state?: 'authorized' | 'rejected'; estado?: string; noReceipt?: boolean };

/**
 * The states in which the SRI gives no receipt for a key: Check Authorization's word for a key it holds nothing for
 * (result.ts NOT_FOUND), and the SRI's own for a receipt it has not processed yet (EN PROCESO; its ficha técnica
 * says "en procesamiento").
 */
const NO_RECEIPT_STATES = new Set([NOT_FOUND, 'EN PROCESO', 'EN PROCESAMIENTO']);

/** What the node before said of a receipt (Check Authorization, Read XML), from its JSON. */
function jsonSays(json: Json): Said {
	const estado = typeof json.estado === 'string' ? json.estado.trim() : '';
	if (estado)
		return estado.toUpperCase() === 'AUTORIZADO'
			? { state: 'authorized', estado }
			: { state: 'rejected', estado, noReceipt: NO_RECEIPT_STATES.has(estado.toUpperCase()) };
	if (json.found === false)
		return { state: 'rejected', estado: 'the SRI has no entry for it', noReceipt: true };
	if (json.authorized === true) return { state: 'authorized' };
	return {};
}

const authorizationNumber = (value: unknown) =>
	typeof value === 'string' && /^\d{3,49}$/.test(value.trim()) ? value.trim() : undefined;

/** The item's receipt and what the SRI said of it, once read from its file or its JSON. */
function annexItem(
	index: number,
	json: Json,
	said: Said,
	receipt: { root?: string; comprobante?: Json; numeroAutorizacion?: string },
	missing: () => string,
): AnnexItem | { unread: string } {
	const fromJson = jsonSays(json);
	const state =
		fromJson.state === 'rejected' || said.state === 'rejected'
			? 'rejected'
			: fromJson.state === 'authorized' || said.state === 'authorized'
				? 'authorized'
				: 'unchecked';
	const estado = fromJson.state === 'rejected' ? fromJson.estado : said.estado;
	const noReceipt = fromJson.noReceipt === true || said.noReceipt === true;
	const { root, comprobante } = receipt;
	if (!comprobante || !root) {
		if (state === 'rejected' || (typeof json.clave_acceso === 'string' && json.found === false))
			return {
				item: index,
				authorization: 'rejected',
				estado,
				noReceipt: noReceipt || json.found === false,
				key: typeof json.clave_acceso === 'string' ? json.clave_acceso : undefined,
			};
		return { unread: missing() };
	}
	const document = receiptFacts(root, comprobante, index);
	if ('problem' in document) return { unread: `the receipt ${document.problem}` };
	document.authorization ??=
		authorizationNumber(json.numero_autorizacion) ??
		authorizationNumber(receipt.numeroAutorizacion);
	return { item: index, document, authorization: state, estado, noReceipt };
}

/** Item `index`'s receipt from the bytes of its file (binary field `field`). */
export function annexItemFromFile(
	bytes: Buffer,
	json: Json,
	index: number,
): AnnexItem | { unread: string } {
	let reading;
	try {
		reading = readReceiptFile(bytes);
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error);
		return {
			unread: error instanceof XmlError ? `is not XML the package can read: ${reason}` : reason,
		};
	}
	if ('noEntry' in reading)
		return annexItem(
			index,
			json,
			{ state: 'rejected', estado: 'no entry in the file', noReceipt: true },
			{},
			noFile,
		);
	if ('noReceipt' in reading) {
		const said = jsonSays({ estado: reading.estado ?? NOT_FOUND });
		return annexItem(
			index,
			json,
			{ ...said, state: 'rejected', estado: reading.estado ?? 'no receipt in the file' },
			{},
			noFile,
		);
	}
	const said = reading.estado !== undefined ? jsonSays({ estado: reading.estado }) : {};
	return annexItem(index, json, { state: said.state, estado: said.estado }, reading, noFile);
}

/** (A file that holds no receipt and no state is not met: readReceiptFile says what it is.) */
const noFile = () => 'holds no receipt';

/** Item `index`'s receipt from its JSON (Read XML's or Check Authorization's `comprobante` and `tipo`). */
export function annexItemFromJson(
	json: Json,
	index: number,
	field: string,
	binaries: readonly string[],
): AnnexItem | { unread: string } {
	if (json.comprobante && typeof json.comprobante === 'object') {
		const root = rootOfTipo(json.tipo);
		if (!root)
			return {
				unread: `has a comprobante but its tipo ${json.tipo === undefined ? 'is missing' : `"${String(json.tipo)}" is not a kind of receipt`}: give the item as Read XML or Check Authorization output it`,
			};
		return annexItem(index, json, {}, { root, comprobante: json.comprobante as Json }, notAReceipt);
	}
	return annexItem(index, json, {}, {}, () => notAReceipt(field, binaries));

	function notAReceipt(f = field, names = binaries): string {
		return `is not a receipt: it has neither a receipt XML file in its binary field "${f}" (it has ${
			names.length ? names.map((k) => `"${k}"`).join(', ') : 'no file'
		}) nor the comprobante of Read XML or Check Authorization`;
	}
}
