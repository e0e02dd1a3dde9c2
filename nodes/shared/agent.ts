import type { IExecuteFunctions } from 'n8n-workflow';

/**
 * True when the node runs as an AI agent's tool. n8n offers every `usableAsTool` node a second node type,
 * its name with the suffix `Tool` (`n8n-nodes-latam-fiscal.receiptsTool`), and an agent's call runs the
 * workflow's node of that type (n8n 2.41.1: `convertNodeToAiTool` in the cli's tool-generation appends the
 * suffix; n8n-workflow's `@tool` display option and `isToolType` read it the same way).
 */
export function runsAsAiTool(this: IExecuteFunctions): boolean {
	return this.getNode().type.endsWith('Tool');
}
