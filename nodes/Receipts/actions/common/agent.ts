import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { runsAsAiTool } from '../../../shared/agent';
import type { XmlElement } from '../../../shared/xml';
import { children } from '../../../shared/xml';

/**
 * Production receipts and AI agents. A receipt issued in the production environment (`ambiente` 2) is a
 * real tax document the tax authority records; an agent decides from a conversation, and a conversation
 * can be mistaken or manipulated. So when this node runs as an agent's tool, every operation that issues,
 * reissues or authorizes refuses a production receipt, before anything is sent, unless the person who
 * configured the tool turned on "Allow Production From an AI Agent". The test environment (1) stays open.
 */

/**
 * The switch, shown only in the tool's settings (n8n's `@tool` display option): off by default, on the
 * form of every issuing operation, where the person who adds the tool to an agent sees it.
 */
export const allowProductionFromAgentField: INodeProperties = {
	displayName: 'Allow Production From an AI Agent',
	name: 'allowProductionFromAgent',
	type: 'boolean',
	default: false,
	displayOptions: { show: { '@tool': [true] } },
	description:
		'Whether an AI agent using this tool may issue, reissue or authorize receipts in the production environment (ambiente 2), which the tax authority records as real tax documents. Off: the agent works in the test environment (ambiente 1) only.',
};

/** True when item `i` may issue or authorize in production: not run by an agent, or the switch is on. */
export function productionAllowed(this: IExecuteFunctions, i: number): boolean {
	return (
		!runsAsAiTool.call(this) ||
		this.getNodeParameter(allowProductionFromAgentField.name, i, false) === true
	);
}

/**
 * Refuses item `i` when the node runs as an agent's tool without the switch and the receipt is not known to
 * be in the test environment: `environments` are what the receipt says of itself (its `ambiente`, the
 * environment digit of its access key); none, or any other than 1, is refused. `what`: "issue this
 * retention", "authorize receipt abc".
 */
export function refuseProductionForAgent(
	this: IExecuteFunctions,
	i: number,
	environments: unknown[],
	what: string,
): void {
	if (productionAllowed.call(this, i)) return;
	const known = environments.filter((e) => e !== undefined && e !== null && e !== '').map(String);
	if (known.length && known.every((e) => e === '1')) return;
	const which = known.find((e) => e !== '1');
	throw refusal(
		this,
		i,
		which === undefined
			? `An AI agent may not ${what}: its environment (ambiente) is not known, and only test receipts (ambiente 1) are allowed`
			: `An AI agent may not ${what}: it is in the production environment (ambiente ${which}), and only test receipts (ambiente 1) are allowed`,
	);
}

function refusal(context: IExecuteFunctions, i: number, message: string): NodeOperationError {
	return new NodeOperationError(context.getNode(), message, {
		itemIndex: i,
		description:
			'This node runs as an AI agent\'s tool, and its "Allow Production From an AI Agent" switch is off: production receipts are real tax documents. Nothing was signed or sent to the tax authority. ' +
			"Issue production receipts from a workflow, or turn the switch on in this tool's settings if the agent may do so.",
	});
}

/**
 * The environment of a receipt XML as the SRI reads it: `infoTributaria/ambiente` under the root element (the
 * receipt schemas have no namespace), and the environment digit, position 24, of `infoTributaria/claveAcceso`
 * when the receipt carries its key (SRI, Ficha técnica de comprobantes electrónicos, esquema offline). Either
 * the environment, or why it cannot be told: no `ambiente`, more than one, a value other than 1 or 2, a key
 * that is not 49 digits, a key that says another environment. Only what the SRI reads counts: a comment, a
 * CDATA section or an entity is read as the XML says, not as it looks.
 */
function environmentOfReceipt(root: XmlElement): { environment: '1' | '2' } | { unknown: string } {
	const infos = children(root, 'infoTributaria', '');
	if (infos.length !== 1) {
		const has = infos.length
			? `${infos.length} <infoTributaria> elements`
			: 'no <infoTributaria> element';
		return {
			unknown: `its environment (ambiente) is not known: the XML has ${has} under its root <${root.name}>`,
		};
	}
	const [info] = infos;
	const ambientes = children(info, 'ambiente', '');
	if (!ambientes.length) return { unknown: 'its environment (ambiente) is not known' };
	const cannot = 'its environment cannot be told';
	if (ambientes.length > 1) {
		const values = ambientes.map((a) => JSON.stringify(a.text.trim())).join(', ');
		return {
			unknown: `${cannot}: <infoTributaria> has ${ambientes.length} <ambiente> elements (${values})`,
		};
	}
	const [ambiente] = ambientes;
	const environment = ambiente.text.trim();
	if (ambiente.children.length || (environment !== '1' && environment !== '2')) {
		return {
			unknown: `${cannot}: <ambiente> holds ${ambiente.children.length ? 'elements' : JSON.stringify(environment.slice(0, 20))}, which is neither 1 (test) nor 2 (production)`,
		};
	}
	// No message below names the key's element: n8n replaces an error message that contains "EACCES"
	// (n8n-workflow, NodeError's common errors), and "claveAcceso" does.
	const keys = children(info, 'claveAcceso', '');
	if (keys.length > 1)
		return { unknown: `${cannot}: <infoTributaria> has ${keys.length} access keys` };
	if (keys.length) {
		const key = keys[0].text.trim();
		if (keys[0].children.length || !/^\d{49}$/.test(key)) {
			return {
				unknown: `${cannot}: its access key is not 49 digits, so its environment digit cannot be read`,
			};
		}
		// Position 24 of the key (SRI, Ficha técnica, clave de acceso: tipo de ambiente).
		if (key[23] !== environment) {
			return {
				unknown: `${cannot}: <ambiente> says ${environment} but its access key says ${key[23]}`,
			};
		}
	}
	return { environment };
}

/**
 * Refuses item `i` (Issue From XML) when the node runs as an agent's tool without the switch and the receipt
 * XML is not unambiguously a test receipt (`environmentOfReceipt`). `root`: the XML as parsed.
 */
export function refuseProductionXmlForAgent(
	this: IExecuteFunctions,
	i: number,
	root: XmlElement,
	what: string,
): void {
	if (productionAllowed.call(this, i)) return;
	const read = environmentOfReceipt(root);
	if ('environment' in read) {
		refuseProductionForAgent.call(this, i, [read.environment], what);
		return;
	}
	throw refusal(
		this,
		i,
		`An AI agent may not ${what}: ${read.unknown}, and only test receipts (ambiente 1) are allowed`,
	);
}
