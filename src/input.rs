//! Reading tool definitions in every input format (OpenAI, Anthropic, MCP, Gemini, bare schema, JSON Lines). (Being built.)
