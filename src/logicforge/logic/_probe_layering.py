def f():
    from ..runner import store
    import logicforge.reports
