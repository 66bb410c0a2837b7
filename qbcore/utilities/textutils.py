MODELS = {}
