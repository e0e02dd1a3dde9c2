import { createHash } from 'node:crypto';
import { DEFAULT_XML_LIMITS, parseXml, XmlError } from '../../../shared/xml';
import { versionOf } from '../cfdi';
import { cfdiFacts, fromJson, fromXml } from '../cfdiFacts';
import type { DiotInput } from './build';

/**
 * One input item of the DIOT as the month takes it: its CFDI — from its XML file (preferred: the package's XML
 * reader and the CFDI reader's own rule for what is a CFDI, cfdi.ts), else from the JSON Read CFDI XML outputs
 * (`comprobante`) — with the status Check CFDI Status put on the item about that CFDI, and which file it came from.
 * An item that is not a CFDI is `{ unread }`, in words that follow the item's name.
 */

/** The JSON and files of an input item, as n8n gives them. */
interface ItemLike {
	json: Record<string, unknown>;
	binary?: Record<string, { id?: string; fileName?: string; data?: string } | undefined>;
}

/** The largest file that may be a CFDI: the package's XML limit. */
export const CFDI_MAX_BYTES = DEFAULT_XML_LIMITS.maxBytes;

const isObject = (v: unknown): v is Record<string, unknown> =>
	typeof v === 'object' && v !== null && !Array.isArray(v);

/** Check CFDI Status's answer on the item, when it is about `uuid`. */
function statusOf(json: ItemLike['json'], uuid: string | undefined): DiotInput['status'] {
	const about = typeof json.uuid === 'string' && json.uuid.toUpperCase() === uuid;
	return about && (typeof json.estado === 'string' || typeof json.found === 'boolean')
		? {
				estado: typeof json.estado === 'string' ? json.estado : undefined,
				found: typeof json.found === 'boolean' ? json.found : undefined,
			}
		: undefined;
}

/**
 * Which file a binary is: its stored file (n8n's binary store, `id`), or its name and content when n8n keeps it
 * in memory. The rows of One Item per Concepto each carry their CFDI's file, the same one (build.ts).
 */
function fileIdentity(binary: { id?: string; fileName?: string; data?: string } | undefined) {
	if (!binary) return undefined;
	if (binary.id) return `id:${binary.id}`;
	return `${binary.fileName ?? ''}:${createHash('sha256')
		.update(binary.data ?? '')
		.digest('hex')}`;
}

/** Item `index`'s CFDI from the bytes of its file in binary field `field`. */
export function diotInputFromFile(
	bytes: Buffer,
	item: ItemLike,
	index: number,
	field: string,
): DiotInput | { unread: string } {
	let cfdi;
	try {
		const root = parseXml(bytes, { maxBytes: CFDI_MAX_BYTES });
		versionOf(root);
		cfdi = cfdiFacts(fromXml(root));
	} catch (error) {
		// Whatever stops the reading stops the DIOT, named with the file: never a CFDI left out unsaid.
		const reason = error instanceof Error ? error.message : String(error);
		return {
			unread: error instanceof XmlError ? `is not XML the package can read: ${reason}` : reason,
		};
	}
	return {
		index,
		cfdi,
		status: statusOf(item.json, cfdi.uuid),
		file: fileIdentity(item.binary?.[field]),
	};
}

/** Why an item's JSON is not a CFDI the DIOT reads, in words that follow "it is". */
function notACfdi(json: ItemLike['json'], field: string, binaries: string[]): string {
	if (json.concepto_numero !== undefined)
		return 'a concepto row of Read CFDI XML (One Item per Concepto) without its file: keep the file on the rows (version 2 does) or turn that option off, so that each item is one CFDI';
	if (json.estado !== undefined || json.expresion_impresa !== undefined)
		return "Check CFDI Status's answer without the CFDI: use its Input CFDI XML, so that the CFDI comes with the answer";
	return `not a CFDI: it has no binary field "${field}"${binaries.length ? ` (it has ${binaries.map((b) => `"${b}"`).join(', ')}: set Input Binary Field)` : ''} and no CFDI as JSON (comprobante, as Read CFDI XML outputs it)`;
}

/** Item `index`'s CFDI from its JSON (Read CFDI XML's `comprobante`). */
export function diotInputFromJson(
	item: ItemLike,
	index: number,
	field: string,
): DiotInput | { unread: string } {
	const { json } = item;
	if (!isObject(json.comprobante))
		return { unread: `is ${notACfdi(json, field, Object.keys(item.binary ?? {}))}` };
	const cfdi = cfdiFacts(
		fromJson(json.comprobante),
		typeof json.uuid === 'string' ? json.uuid : undefined,
	);
	return { index, cfdi, status: statusOf(json, cfdi.uuid), file: undefined };
}
