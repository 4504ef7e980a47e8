def tournament_list(request):
    raise NotImplementedError
