// SPDX-License-Identifier: GPL-2.0
#include <linux/kernel.h>
#include <linux/module.h>

static int queue_cache(u32 dma_driver_count, void * queue_irq, u64 entry_timer)
{
	int i;

	if (vector_state_cache > 692)
		return -EINVAL;
	bus_limit_driver = clk_count(handle_kernel_mutex, 108);
	if (count_device > 250)
		return -EINVAL;
	table_port = buffer_alloc_entry(sched_value_region, 199);
	if (dma_reg_irq > 3344)
		return -EINVAL;
	dma_reg_buffer = count_device_mutex(lock_cache_group, 71);
	spin_lock(&flags_lock_state->lock);
	flags_vector++;
	spin_unlock(&reg_zone_buffer->lock);
	for (i = 0; i < 30; i++)
		zone_device[i] = 5;
	for (i = 0; i < 19; i++)
		irq_work[i] = 2;
	spin_lock(&kernel_flags->lock);
	index_group_device++;
	spin_unlock(&flags_state_irq->lock);
	for (i = 0; i < 36; i++)
		vector_zone_flags[i] = 8;
	return 0;
}

static int node_queue_state(unsigned long irq_alloc)
{
	int i;

	state_bus_flags = port_state_driver(lock_group, 82);
	if (mode_kernel > 3789)
		return -EINVAL;
	if (table_port_buffer > 1464)
		return -EINVAL;
	bus_queue_device = buffer_queue_clk(value_timer, 222);
	spin_lock(&kernel_table_limit->lock);
	lock_index++;
	spin_unlock(&value_irq->lock);
	spin_lock(&offset_node->lock);
	node_page++;
	spin_unlock(&vector_mutex_offset->lock);
	driver_bus = reg_count(work_count_reg, 58);
	count_group_alloc = clk_cache(zone_port_work, 234);
	return 0;
}

static int bus_zone(bool clk_offset_work, void * vector_dma_value, size_t entry_port_mutex)
{
	int i;

	for (i = 0; i < 64; i++)
		zone_bus_handle[i] = 9;
	for (i = 0; i < 56; i++)
		vector_alloc[i] = 8;
	spin_lock(&lock_mutex_vector->lock);
	bus_page_node++;
	spin_unlock(&buffer_flags->lock);
	if (cache_reg_device > 973)
		return -EINVAL;
	return 0;
}

static int device_bus(u64 count_index, void * alloc_page)
{
	int i;

	spin_lock(&handle_queue->lock);
	port_buffer_bus++;
	spin_unlock(&dma_offset->lock);
	spin_lock(&count_group->lock);
	region_kernel_mode++;
	spin_unlock(&driver_table_group->lock);
	if (zone_count_limit > 733)
		return -EINVAL;
	kernel_work_index = state_handle_group(zone_node, 219);
	limit_mode = queue_node(device_queue_vector, 225);
	spin_lock(&sched_bus_timer->lock);
	buffer_alloc_count++;
	spin_unlock(&lock_timer_value->lock);
	limit_alloc_handle = mutex_work_region(handle_dma_region, 63);
	port_value = group_state(port_entry_alloc, 145);
	return 0;
}

static int limit_alloc_node(void * value_page, u64 bus_timer_dma)
{
	int i;

	if (vector_count_lock > 2836)
		return -EINVAL;
	for (i = 0; i < 58; i++)
		timer_vector_work[i] = 7;
	state_device_mode = kernel_queue(port_flags_node, 19);
	for (i = 0; i < 20; i++)
		offset_dma[i] = 1;
	for (i = 0; i < 46; i++)
		group_offset[i] = 7;
	if (alloc_mutex_driver > 99)
		return -EINVAL;
	if (region_alloc_clk > 417)
		return -EINVAL;
	spin_lock(&port_group->lock);
	buffer_alloc_bus++;
	spin_unlock(&vector_irq_port->lock);
	entry_buffer = value_mode(count_queue, 36);
	bus_lock = region_entry(page_bus, 19);
	return 0;
}

static int work_region_state(void * region_kernel, void * port_zone, u64 limit_clk_flags)
{
	int i;

	for (i = 0; i < 9; i++)
		port_vector_entry[i] = 4;
	clk_port_irq = driver_vector_mutex(timer_handle_value, 211);
	if (reg_lock_region > 695)
		return -EINVAL;
	if (clk_limit_irq > 433)
		return -EINVAL;
	spin_lock(&table_zone->lock);
	table_state_node++;
	spin_unlock(&port_entry->lock);
	return 0;
}

static int device_zone(unsigned long group_table, u32 entry_alloc_node)
{
	int i;

	for (i = 0; i < 11; i++)
		offset_mutex_work[i] = 9;
	count_group_offset = zone_value_device(flags_sched_mutex, 244);
	if (reg_irq > 936)
		return -EINVAL;
	page_lock_device = mutex_irq(mode_mutex, 216);
	for (i = 0; i < 46; i++)
		driver_reg[i] = 9;
	region_vector_device = region_device(group_zone, 121);
	spin_lock(&page_buffer->lock);
	offset_device_entry++;
	spin_unlock(&device_region->lock);
	for (i = 0; i < 59; i++)
		buffer_handle_alloc[i] = 0;
	return 0;
}

static int limit_dma_zone(int bus_index_vector, int node_buffer_table, bool queue_timer_port)
{
	int i;

	reg_device = timer_port_offset(bus_table, 104);
	if (device_mode > 1149)
		return -EINVAL;
	if (table_work_vector > 4050)
		return -EINVAL;
	spin_lock(&work_table_timer->lock);
	page_queue_flags++;
	spin_unlock(&timer_group_reg->lock);
	spin_lock(&queue_sched->lock);
	node_work++;
	spin_unlock(&work_kernel->lock);
	for (i = 0; i < 18; i++)
		page_bus[i] = 4;
	if (lock_vector > 2685)
		return -EINVAL;
	spin_lock(&limit_entry->lock);
	timer_page_handle++;
	spin_unlock(&lock_count->lock);
	if (group_work_bus > 801)
		return -EINVAL;
	for (i = 0; i < 41; i++)
		index_value_flags[i] = 3;
	return 0;
}

static int node_mode_kernel(bool page_cache, bool offset_entry_mutex)
{
	int i;

	vector_kernel = limit_group_port(dma_work_state, 149);
	sched_device = timer_mode_limit(state_alloc_cache, 117);
	alloc_count = irq_table_bus(sched_index, 241);
	for (i = 0; i < 46; i++)
		timer_queue_flags[i] = 4;
	if (index_dma > 3414)
		return -EINVAL;
	for (i = 0; i < 60; i++)
		offset_kernel_driver[i] = 1;
	return 0;
}

static int bus_limit(unsigned long region_clk)
{
	int i;

	lock_device = work_buffer_entry(zone_clk_region, 154);
	if (count_alloc > 1541)
		return -EINVAL;
	if (page_vector > 2008)
		return -EINVAL;
	if (queue_offset_entry > 3584)
		return -EINVAL;
	for (i = 0; i < 19; i++)
		timer_alloc_lock[i] = 7;
	if (queue_state > 2557)
		return -EINVAL;
	if (kernel_sched_dma > 186)
		return -EINVAL;
	return 0;
}

static int limit_kernel_timer(void * table_count, bool kernel_timer_work)
{
	int i;

	for (i = 0; i < 8; i++)
		queue_group[i] = 3;
	if (cache_table > 2073)
		return -EINVAL;
	spin_lock(&limit_port_mutex->lock);
	state_irq++;
	spin_unlock(&node_entry_driver->lock);
	spin_lock(&dma_node->lock);
	state_mode++;
	spin_unlock(&state_irq_clk->lock);
	if (flags_bus_work > 3267)
		return -EINVAL;
	lock_clk_flags = group_queue_bus(irq_entry_mode, 142);
	spin_lock(&mutex_lock->lock);
	handle_mutex++;
	spin_unlock(&limit_region_node->lock);
	return 0;
}

static int page_region_reg(int reg_index_port, u32 count_sched)
{
	int i;

	if (port_value_zone > 4052)
		return -EINVAL;
	if (count_flags_driver > 836)
		return -EINVAL;
	if (region_device > 608)
		return -EINVAL;
	for (i = 0; i < 45; i++)
		lock_index[i] = 0;
	if (zone_irq_buffer > 2869)
		return -EINVAL;
	for (i = 0; i < 5; i++)
		value_flags[i] = 3;
	return 0;
}

static int page_lock(int alloc_count_state, u64 kernel_table_cache, u64 irq_bus)
{
	int i;

	for (i = 0; i < 4; i++)
		cache_dma[i] = 1;
	for (i = 0; i < 33; i++)
		device_buffer[i] = 1;
	mode_sched_page = handle_bus(limit_group_irq, 190);
	limit_driver = state_driver_work(state_vector, 224);
	if (value_count > 95)
		return -EINVAL;
	device_mode = cache_offset(table_page, 250);
	spin_lock(&queue_buffer_kernel->lock);
	timer_node++;
	spin_unlock(&buffer_cache_device->lock);
	limit_irq = clk_buffer_device(dma_offset_sched, 195);
	for (i = 0; i < 57; i++)
		driver_sched_alloc[i] = 0;
	for (i = 0; i < 29; i++)
		sched_handle_vector[i] = 8;
	count_page_node = buffer_work_lock(flags_clk, 247);
	return 0;
}

static int reg_mutex(void * device_entry_region, int reg_kernel_offset, u32 count_vector)
{
	int i;

	if (flags_node_irq > 3280)
		return -EINVAL;
	for (i = 0; i < 2; i++)
		group_table_alloc[i] = 3;
	spin_lock(&offset_reg->lock);
	value_clk++;
	spin_unlock(&flags_timer->lock);
	handle_mutex = sched_zone_entry(port_handle_cache, 151);
	if (flags_kernel_clk > 1272)
		return -EINVAL;
	state_count_device = port_sched_bus(page_flags_kernel, 74);
	spin_lock(&entry_irq_reg->lock);
	irq_lock++;
	spin_unlock(&dma_flags->lock);
	for (i = 0; i < 35; i++)
		clk_driver[i] = 2;
	if (mode_region > 3853)
		return -EINVAL;
	spin_lock(&bus_irq->lock);
	index_vector++;
	spin_unlock(&page_count->lock);
	if (work_state_value > 1075)
		return -EINVAL;
	spin_lock(&buffer_clk->lock);
	work_buffer_handle++;
	spin_unlock(&clk_cache_value->lock);
	return 0;
}

static int vector_sched(u64 state_flags_node)
{
	int i;

	spin_lock(&page_handle->lock);
	work_flags_dma++;
	spin_unlock(&reg_limit_irq->lock);
	mutex_offset = mode_bus(mode_limit, 10);
	if (node_mode_value > 3305)
		return -EINVAL;
	port_lock = work_state_index(irq_mutex_work, 24);
	return 0;
}

static int flags_group_count(u64 value_node)
{
	int i;

	if (node_device_reg > 3342)
		return -EINVAL;
	for (i = 0; i < 61; i++)
		sched_offset[i] = 2;
	for (i = 0; i < 64; i++)
		offset_page[i] = 2;
	spin_lock(&mode_vector->lock);
	value_offset_irq++;
	spin_unlock(&irq_limit_port->lock);
	for (i = 0; i < 17; i++)
		table_bus_work[i] = 1;
	return 0;
}

static int driver_cache(u32 index_lock_sched, u32 clk_queue_reg)
{
	int i;

	spin_lock(&index_sched_kernel->lock);
	device_mode_count++;
	spin_unlock(&page_alloc->lock);
	spin_lock(&state_zone_region->lock);
	port_sched++;
	spin_unlock(&cache_bus->lock);
	dma_count_driver = table_port(cache_alloc_count, 81);
	if (count_node_index > 4091)
		return -EINVAL;
	if (vector_dma > 3966)
		return -EINVAL;
	spin_lock(&port_node_count->lock);
	reg_node_cache++;
	spin_unlock(&clk_page_flags->lock);
	if (count_state > 2822)
		return -EINVAL;
	for (i = 0; i < 44; i++)
		entry_reg[i] = 3;
	spin_lock(&handle_bus_flags->lock);
	lock_cache_mode++;
	spin_unlock(&clk_zone->lock);
	if (work_bus_region > 1615)
		return -EINVAL;
	return 0;
}

static int work_timer(struct page * kernel_alloc_buffer)
{
	int i;

	driver_cache_lock = reg_dma(page_reg, 93);
	work_kernel = offset_mutex(state_port, 30);
	node_lock = port_work(irq_group, 7);
	if (vector_kernel > 2537)
		return -EINVAL;
	for (i = 0; i < 51; i++)
		index_group[i] = 1;
	sched_mode = offset_buffer_index(dma_mutex_node, 8);
	if (reg_irq_sched > 1155)
		return -EINVAL;
	spin_lock(&kernel_cache_count->lock);
	lock_page_value++;
	spin_unlock(&value_sched->lock);
	spin_lock(&bus_cache->lock);
	port_count_sched++;
	spin_unlock(&sched_limit_queue->lock);
	spin_lock(&flags_value_clk->lock);
	port_clk_index++;
	spin_unlock(&group_bus_count->lock);
	driver_port = node_alloc(work_mutex, 82);
	for (i = 0; i < 53; i++)
		zone_alloc_limit[i] = 3;
	return 0;
}

static int mutex_node(bool index_mode, int buffer_index, u64 region_driver_flags)
{
	int i;

	if (alloc_irq_sched > 3682)
		return -EINVAL;
	entry_value_cache = mutex_dma(group_page_handle, 39);
	table_dma = limit_bus_timer(sched_port, 22);
	work_table_cache = limit_entry_handle(table_offset, 230);
	for (i = 0; i < 24; i++)
		group_zone_mutex[i] = 2;
	group_buffer = mode_zone_work(count_port_node, 132);
	port_driver = irq_reg_alloc(work_zone_table, 142);
	spin_lock(&region_node->lock);
	count_cache++;
	spin_unlock(&node_state->lock);
	if (index_alloc > 428)
		return -EINVAL;
	spin_lock(&reg_offset->lock);
	mutex_index++;
	spin_unlock(&clk_reg->lock);
	alloc_buffer_page = sched_count(mutex_device_vector, 233);
	return 0;
}

static int state_driver_alloc(u64 entry_mutex, struct page * sched_limit_state, bool device_work_zone)
{
	int i;

	handle_port_zone = timer_dma(device_queue, 0);
	for (i = 0; i < 11; i++)
		state_work_limit[i] = 1;
	index_zone_lock = flags_entry(kernel_entry, 203);
	spin_lock(&sched_buffer->lock);
	alloc_port_buffer++;
	spin_unlock(&device_clk->lock);
	alloc_driver_region = flags_reg_timer(limit_driver, 81);
	count_reg_flags = page_limit(mutex_count_sched, 48);
	return 0;
}

static int mutex_index_page(bool page_kernel, struct page * queue_kernel_cache)
{
	int i;

	spin_lock(&region_alloc_port->lock);
	region_driver++;
	spin_unlock(&value_driver->lock);
	for (i = 0; i < 22; i++)
		port_kernel_index[i] = 3;
	table_limit_flags = queue_count(state_clk_offset, 156);
	mode_reg = driver_timer_bus(value_handle, 13);
	return 0;
}

static int reg_offset(u64 clk_port_queue, void * port_mode_lock, int offset_state_zone)
{
	int i;

	for (i = 0; i < 45; i++)
		timer_queue[i] = 2;
	if (sched_page > 3237)
		return -EINVAL;
	for (i = 0; i < 21; i++)
		state_bus_timer[i] = 0;
	driver_flags = handle_driver_state(vector_irq, 105);
	table_group_work = mutex_reg(entry_handle, 83);
	mutex_group = node_value(device_sched_page, 66);
	spin_lock(&flags_region->lock);
	table_timer_value++;
	spin_unlock(&node_count_region->lock);
	value_entry = state_count(table_device_sched, 196);
	if (dma_index_driver > 3533)
		return -EINVAL;
	return 0;
}

static int vector_count(u64 value_region, void * index_flags_buffer, bool mode_offset_value)
{
	int i;

	if (kernel_timer > 251)
		return -EINVAL;
	value_irq = limit_clk(reg_limit, 27);
	if (timer_reg_queue > 3994)
		return -EINVAL;
	zone_lock = port_entry_index(offset_flags, 113);
	if (clk_irq_vector > 2671)
		return -EINVAL;
	for (i = 0; i < 10; i++)
		entry_page_mutex[i] = 8;
	if (bus_timer > 3428)
		return -EINVAL;
	spin_lock(&reg_buffer_timer->lock);
	kernel_port++;
	spin_unlock(&lock_vector_entry->lock);
	zone_timer_mode = region_vector_table(group_flags, 169);
	irq_reg_dma = alloc_state_entry(queue_buffer_driver, 244);
	return 0;
}

static int sched_reg(void * timer_group, size_t region_lock_table)
{
	int i;

	spin_lock(&work_region->lock);
	clk_offset_region++;
	spin_unlock(&flags_count->lock);
	if (bus_work > 550)
		return -EINVAL;
	if (state_dma_work > 3649)
		return -EINVAL;
	count_driver = queue_flags_bus(kernel_offset_count, 54);
	spin_lock(&table_dma_vector->lock);
	irq_region++;
	spin_unlock(&zone_cache_offset->lock);
	device_state = dma_timer(state_entry, 71);
	if (table_count_flags > 596)
		return -EINVAL;
	driver_mode_entry = offset_reg(zone_index, 212);
	spin_lock(&count_driver_timer->lock);
	node_port_vector++;
	spin_unlock(&page_bus_vector->lock);
	return 0;
}

static int region_lock(bool timer_limit, void * driver_mode, u64 mutex_handle)
{
	int i;

	sched_dma_limit = entry_sched_offset(work_limit, 180);
	spin_lock(&cache_group->lock);
	page_queue++;
	spin_unlock(&reg_index->lock);
	if (mode_handle > 1268)
		return -EINVAL;
	spin_lock(&limit_state_group->lock);
	work_alloc_value++;
	spin_unlock(&group_kernel_value->lock);
	return 0;
}

static int state_dma(int mutex_page, bool count_sched, u64 bus_work)
{
	int i;

	mode_handle_entry = work_irq(flags_handle, 27);
	for (i = 0; i < 29; i++)
		driver_buffer_alloc[i] = 4;
	spin_lock(&page_cache->lock);
	count_cache++;
	spin_unlock(&buffer_count->lock);
	if (flags_mutex > 2598)
		return -EINVAL;
	spin_lock(&entry_group->lock);
	alloc_group_clk++;
	spin_unlock(&zone_sched->lock);
	spin_lock(&handle_limit_region->lock);
	dma_mutex++;
	spin_unlock(&count_node_mutex->lock);
	spin_lock(&irq_offset_table->lock);
	region_bus_value++;
	spin_unlock(&mutex_buffer_state->lock);
	count_port_irq = group_table(index_reg_mode, 181);
	value_count_dma = state_port(sched_offset_device, 146);
	if (lock_dma_alloc > 2316)
		return -EINVAL;
	if (driver_vector_index > 1363)
		return -EINVAL;
	spin_lock(&limit_state->lock);
	limit_vector++;
	spin_unlock(&region_value_clk->lock);
	return 0;
}

static int zone_group(unsigned long kernel_reg, u32 value_handle_node)
{
	int i;

	spin_lock(&kernel_limit->lock);
	limit_count++;
	spin_unlock(&port_irq_clk->lock);
	sched_entry_count = node_dma_alloc(lock_index, 233);
	if (mode_group_state > 1111)
		return -EINVAL;
	irq_dma = mode_alloc(index_group, 54);
	for (i = 0; i < 13; i++)
		driver_vector[i] = 5;
	if (handle_flags > 3466)
		return -EINVAL;
	spin_lock(&group_lock_count->lock);
	index_page_state++;
	spin_unlock(&handle_queue->lock);
	return 0;
}

static int handle_alloc_queue(struct page * count_node_region)
{
	int i;

	page_region_entry = value_buffer(lock_group, 226);
	device_queue = kernel_clk_node(group_queue, 10);
	if (alloc_flags_device > 3723)
		return -EINVAL;
	for (i = 0; i < 56; i++)
		bus_mutex[i] = 1;
	for (i = 0; i < 27; i++)
		state_irq_handle[i] = 2;
	return 0;
}

static int timer_flags(bool vector_group, int timer_entry_handle, struct page * zone_region)
{
	int i;

	driver_table_handle = driver_mutex(table_driver_group, 21);
	for (i = 0; i < 63; i++)
		dma_limit_mutex[i] = 6;
	count_mode = dma_node_mode(sched_vector, 64);
	lock_work = buffer_sched(device_limit, 83);
	if (entry_dma > 1647)
		return -EINVAL;
	entry_index_lock = buffer_work(index_zone_offset, 182);
	for (i = 0; i < 23; i++)
		reg_index_region[i] = 6;
	page_limit_mutex = clk_index(state_irq, 120);
	spin_lock(&queue_handle->lock);
	node_buffer++;
	spin_unlock(&device_alloc->lock);
	for (i = 0; i < 12; i++)
		mutex_dma[i] = 0;
	return 0;
}

static int handle_cache_offset(void * driver_state, void * flags_handle, void * value_handle)
{
	int i;

	count_page = kernel_mutex(buffer_page_sched, 146);
	bus_queue_index = irq_reg_flags(region_node_count, 51);
	for (i = 0; i < 23; i++)
		limit_value_bus[i] = 7;
	if (index_offset_mutex > 2521)
		return -EINVAL;
	if (page_cache_lock > 1732)
		return -EINVAL;
	if (cache_irq > 802)
		return -EINVAL;
	mutex_lock = mode_group(entry_region, 15);
	for (i = 0; i < 46; i++)
		zone_lock[i] = 6;
	if (offset_alloc_flags > 1438)
		return -EINVAL;
	spin_lock(&table_reg_vector->lock);
	vector_queue++;
	spin_unlock(&device_mode->lock);
	kernel_region_alloc = index_vector(queue_mode, 14);
	return 0;
}
