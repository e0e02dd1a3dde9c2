import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseXml } from '../../nodes/shared/xml';
/** @import { XmlElement } from '../../nodes/shared/xml' */

/**
 * What the SAT's XSDs say about the JSON of a CFDI, read from copies of them (test/sat/xsd/, see its README): for
 * each schema, every element declared (by its path of local names), whether it may occur more than once in its
 * parent (its maxOccurs, or that of a sequence or choice around it), which of its attributes are typed as
 * numbers, and whether it holds `xs:any` (the complements' holders). A small reader of the XSD constructs the
 * SAT's schemas use — inline and named simple and complex types, sequence, choice, attributes, simple and complex
 * content — that throws on anything else, so that a new construct cannot be skipped silently.
 */

export const XSD_DIR = join(__dirname, 'xsd');

const XS = 'http://www.w3.org/2001/XMLSchema';
/** XML Schema's numeric built-in types (xs:decimal and those derived from it; float and double). */
const NUMERIC = new Set([
	'decimal',
	'integer',
	'int',
	'long',
	'short',
	'byte',
	'nonNegativeInteger',
	'positiveInteger',
	'nonPositiveInteger',
	'negativeInteger',
	'unsignedLong',
	'unsignedInt',
	'unsignedShort',
	'unsignedByte',
	'float',
	'double',
]);
/**
 * The SAT's catalogs (catCFDI, catNomina, catPagos, catCartaPorte): enumerations of codes on xs:string, read as
 * text without loading them (catCFDI.xsd and catCartaPorte.xsd are megabytes).
 */
const CATALOG = /^http:\/\/www\.sat\.gob\.mx\/sitio_internet\/cfd\/catalogos(\/|$)/;

/** @param {XmlElement} e @param {string} [local] */
const xs = (e, local) => e.children.filter((c) => c.ns === XS && (!local || c.local === local));
/** @param {string | undefined} max */
const many = (max) => max !== undefined && (max === 'unbounded' || Number(max) > 1);

/**
 * @typedef {{ local: string, repeated: boolean, numbers: Set<string>, texts: Set<string>, holder: boolean }} Declared
 * @typedef {{ file: string, namespace: string, elementForm: string | undefined, attributeForm: string | undefined, elements: Map<string, Declared> }} Schema
 */

/** @param {string} file */
function load(file) {
	const root = parseXml(readFileSync(join(XSD_DIR, file)));
	/** @type {Record<string, string>} */
	const prefixes = {};
	for (const [name, value] of Object.entries(root.attributes)) {
		if (name === 'xmlns') prefixes[''] = value;
		else if (name.startsWith('xmlns:')) prefixes[name.slice(6)] = value;
	}
	/** @param {string} kind */
	const named = (kind) => new Map(xs(root, kind).map((e) => [e.attributes.name, e]));
	return {
		root,
		prefixes,
		simple: named('simpleType'),
		complex: named('complexType'),
		namespace: root.attributes.targetNamespace,
	};
}

/** The named simple types of tdCFDI.xsd (t_Importe, t_TipoCambio…): 'number' or 'text'. */
function typeLibrary() {
	const lib = load('tdCFDI.xsd');
	/** @type {Map<string, 'number' | 'text'>} */
	const kinds = new Map();
	for (const [name, type] of lib.simple) {
		const base = xs(type, 'restriction')[0]?.attributes.base ?? '';
		const [prefix, local] = base.split(':');
		kinds.set(name, lib.prefixes[prefix] === XS && NUMERIC.has(local) ? 'number' : 'text');
	}
	return { namespace: lib.namespace, kinds };
}

/** @param {string} file @returns {Schema} */
export function readSchema(file) {
	const s = load(file);
	const library = typeLibrary();
	/** @param {string} qname @returns {[string, string]} */
	const resolve = (qname) => {
		const colon = qname.indexOf(':');
		return colon === -1
			? [s.prefixes[''] ?? '', qname]
			: [s.prefixes[qname.slice(0, colon)], qname.slice(colon + 1)];
	};
	/** @param {XmlElement} simpleType @returns {'number' | 'text'} */
	const simpleKind = (simpleType) => {
		const restriction = xs(simpleType, 'restriction')[0];
		if (!restriction) return 'text'; // a list or a union
		if (restriction.attributes.base) return typeKind(restriction.attributes.base);
		const inner = xs(restriction, 'simpleType')[0];
		return inner ? simpleKind(inner) : 'text';
	};
	/** @param {string} qname @returns {'number' | 'text'} */
	const typeKind = (qname) => {
		const [ns, name] = resolve(qname);
		if (ns === XS) return NUMERIC.has(name) ? 'number' : 'text';
		const own = ns === s.namespace ? s.simple.get(name) : undefined;
		if (own) return simpleKind(own);
		const typed = ns === library.namespace ? library.kinds.get(name) : undefined;
		if (typed) return typed;
		if (CATALOG.test(ns)) return 'text';
		throw new Error(`${file}: the type ${qname} (${ns}) is not known`);
	};
	/** @param {XmlElement} attribute */
	const attributeKind = (attribute) => {
		if (attribute.attributes.type) return typeKind(attribute.attributes.type);
		const inline = xs(attribute, 'simpleType')[0];
		return inline ? simpleKind(inline) : 'text';
	};

	/** @type {Map<string, Declared>} */
	const elements = new Map();
	/**
	 * The content of a complex type, for the element at `path`.
	 * @param {XmlElement} type @param {string} path @param {Declared} declared
	 */
	const content = (type, path, declared) => {
		/** @param {XmlElement} node @param {boolean} repeats */
		const visit = (node, repeats) => {
			for (const c of xs(node)) {
				const r = repeats || many(c.attributes.maxOccurs);
				switch (c.local) {
					case 'annotation':
						break;
					case 'attribute':
						(attributeKind(c) === 'number' ? declared.numbers : declared.texts).add(
							c.attributes.name,
						);
						break;
					case 'element':
						element(c, path, r);
						break;
					case 'any':
						declared.holder = true;
						break;
					case 'sequence':
					case 'choice':
					case 'all':
						visit(c, r);
						break;
					case 'simpleContent':
					case 'complexContent':
						visit(c, repeats);
						break;
					case 'extension':
					case 'restriction': {
						const [ns, name] = resolve(c.attributes.base);
						const base = ns === s.namespace ? s.complex.get(name) : undefined;
						if (base) content(base, path, declared);
						visit(c, repeats);
						break;
					}
					default:
						throw new Error(`${file}: <xs:${c.local}> in ${path} is not read by this test`);
				}
			}
		};
		visit(type, false);
	};
	/** @param {XmlElement} e @param {string} parent @param {boolean} repeats */
	const element = (e, parent, repeats) => {
		const name = e.attributes.name;
		if (!name) throw new Error(`${file}: an element without a name (a ref) in ${parent}`);
		const path = parent ? `${parent}/${name}` : name;
		/** @type {Declared} */
		const declared = elements.get(path) ?? {
			local: name,
			repeated: false,
			numbers: new Set(),
			texts: new Set(),
			holder: false,
		};
		declared.repeated ||= repeats || many(e.attributes.maxOccurs);
		elements.set(path, declared);
		const inline = xs(e, 'complexType')[0];
		if (inline) content(inline, path, declared);
		else if (e.attributes.type) {
			const [ns, type] = resolve(e.attributes.type);
			const named = ns === s.namespace ? s.complex.get(type) : undefined;
			if (named) content(named, path, declared);
			else if (typeKind(e.attributes.type) === 'number')
				throw new Error(`${file}: ${path} holds a number as text, which this test does not expect`);
		}
	};
	for (const e of xs(s.root, 'element')) element(e, '', false);
	return {
		file,
		namespace: s.namespace,
		elementForm: s.root.attributes.elementFormDefault,
		attributeForm: s.root.attributes.attributeFormDefault,
		elements,
	};
}
